// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// Epoch loop around a size_t loop over a vector of batches: the index restarts each epoch, so
// batches.size() % 4 leftover micro-batches leak into the next epoch's first window.
#include <torch/torch.h>

struct Batch {
  torch::Tensor x;
  torch::Tensor y;
};

void fit(torch::nn::Linear &model, const std::vector<Batch> &batches, int num_epochs) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int grad_accum = 4;
  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    model->train();
    for (size_t b = 0; b < batches.size(); ++b) {
      torch::Tensor pred = model->forward(batches[b].x);
      torch::Tensor loss = torch::mse_loss(pred, batches[b].y) / grad_accum;
      // CHECK-FIXES-UNSAFE: {{^}}      torch::Tensor pred = model->forward(batches[b].x);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      torch::Tensor loss = torch::mse_loss(pred, batches[b].y) / static_cast<double>(b >= batches.size() - batches.size() % grad_accum ? batches.size() % grad_accum : grad_accum);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((b + 1) % grad_accum == 0 || b + 1 == batches.size()) {{{$}}
      loss.backward();
      if ((b + 1) % grad_accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        adam.step();
        adam.zero_grad();
      }
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 1 of 14 \(7\.1%\) micro-batches never reached a step
// The `i % N == N - 1` spelling of the boundary; the epoch's last i % N < N - 1 micro-batches
// are left in .grad when the epoch ends.
#include <torch/torch.h>

void train(torch::nn::Sequential &model, std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &targets, int num_epochs) {
  torch::optim::RMSprop opt(model->parameters(), torch::optim::RMSpropOptions(1e-3));
  const int N = 3;
  for (int epoch = 0; epoch < num_epochs; epoch++) {
    for (int i = 0; i < (int)batches.size(); i++) {
      auto loss = torch::binary_cross_entropy_with_logits(model->forward(batches[i]), targets[i]);
      loss = loss / N;
      // CHECK-FIXES-UNSAFE: {{^}}      auto loss = torch::binary_cross_entropy_with_logits(model->forward(batches[i]), targets[i]);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss = loss / static_cast<double>(i >= ((int)batches.size()) - ((int)batches.size()) % N ? ((int)batches.size()) % N : N);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (i % N == N - 1 || i + 1 == ((int)batches.size())) {{{$}}
      loss.backward();
      if (i % N == N - 1) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

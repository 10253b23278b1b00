// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// Clipping in the not-boundary branch (`if ((i + 1) % N != 0) { clip } else
// { step }`) clips every partial sum but never the full accumulated gradient.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int N = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / N;
    loss.backward();
    if ((i + 1) % N != 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the last micro-batch {{.*}} [accum-per-micro-batch-clip]
    } else {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// Nested loops over the window's micro-batches; SGD with momentum and the full decay,
// the loss divided by the number of micro-batches.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &data,
           const std::vector<torch::Tensor> &targets) {
  const int micro_batches = 3;
  torch::optim::SGD opt(net->parameters(),
                        torch::optim::SGDOptions(0.02).momentum(0.9).weight_decay(0.3));
  const size_t steps = data.size() / 3;
  for (size_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    for (int m = 0; m < micro_batches; ++m) {
      const size_t idx = s * 3 + m;
      auto loss = torch::mse_loss(net->forward(data[idx]), targets[idx]) / micro_batches;
      loss.backward();
    }
    opt.step();
  }
}

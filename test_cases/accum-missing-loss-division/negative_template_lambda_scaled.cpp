// RUN: %check_gradlint %s
// Function template over the optimizer type; a lambda returns the loss divided by
// k, and backward() runs on the lambda's result.
#include <torch/torch.h>

template <typename Optimizer>
void train(Optimizer &optim, torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int k) {
  auto micro_loss = [&](size_t j) { return torch::mse_loss(net->forward(xs[j]), ys[j]) / k; };
  for (size_t j = 0; j < xs.size(); ++j) {
    micro_loss(j).backward();
    if ((j + 1) % k == 0) {
      optim.step();
      optim.zero_grad();
    }
  }
}

template void train<torch::optim::SGD>(torch::optim::SGD &, torch::nn::Linear,
                                       const std::vector<torch::Tensor> &,
                                       const std::vector<torch::Tensor> &, int);

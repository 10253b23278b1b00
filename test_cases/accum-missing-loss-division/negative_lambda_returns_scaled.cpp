// RUN: %check_gradlint %s
// A lambda returns the scaled loss; backward() on its result is divided by k.
#include <torch/torch.h>

void train(torch::optim::Adam &opt, torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int k) {
  auto micro_loss = [&](size_t j) { return torch::mse_loss(net->forward(xs[j]), ys[j]) / k; };
  for (size_t j = 0; j < xs.size(); ++j) {
    micro_loss(j).backward();
    if ((j + 1) % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

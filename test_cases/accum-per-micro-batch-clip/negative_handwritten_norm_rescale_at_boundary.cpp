// RUN: %check_gradlint %s
// The same hand-written clip (rescale by max_norm / global norm) placed in the boundary
// branch, on the full window sum, right before step(); and a gradient scaled by a constant
// (an AMP-style 1 / scale) on every micro-batch, which is no clip.
#include <cmath>
#include <torch/torch.h>
#include <vector>

double norm_of(const std::vector<torch::Tensor> &params) {
  torch::Tensor total = torch::zeros({});
  for (const auto &p : params)
    total += p.grad().pow(2).sum();
  return std::sqrt(total.item<double>());
}

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.1));
  const int window = 4;
  const double loss_scale = 1024.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    (net->forward(xs[i]).sum() * loss_scale / window).backward();
    for (auto &p : net->parameters())
      p.grad().mul_(1.0 / loss_scale);
    if ((i + 1) % window == 0) {
      auto params = net->parameters();
      const double factor = 0.5 / (norm_of(params) + 1e-6);
      if (factor < 1.0)
        for (auto &p : params)
          p.grad().mul_(factor);
      opt.step();
      opt.zero_grad();
    }
  }
}

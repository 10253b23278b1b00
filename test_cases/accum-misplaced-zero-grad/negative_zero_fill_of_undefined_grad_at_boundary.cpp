// RUN: %check_gradlint %s
// Before the boundary all-reduce, a parameter whose .grad was never created (unused in
// this window) gets a zero gradient, so every rank passes a tensor of the same shape.
// That write replaces an undefined gradient: nothing accumulated is discarded.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Sequential net, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.01));
  const int every = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(net->forward(xs[i]), ys[i]) / every).backward();
    if ((i + 1) % every != 0)
      continue;
    for (auto &p : net->parameters()) {
      if (!p.grad().defined())
        p.mutable_grad() = torch::zeros_like(p);
      std::vector<torch::Tensor> bucket{p.grad()};
      pg->allreduce(bucket)->wait();
      p.grad().div_(pg->getSize());
    }
    sgd.step();
    sgd.zero_grad();
  }
}

// RUN: %check_gradlint %s
// One all-reduce per window, but on the window's first micro-batch (i % N == 0) instead of
// its last: the gradients step() applies are mostly local. That is a different bug from
// an all-reduce on every micro-batch (there is exactly one per step), so this check is quiet.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int n = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / n;
    loss.backward();
    if (i % n == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g)->wait();
        p.grad().div_(pg->getSize());
      }
    }
    if ((i + 1) % n == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

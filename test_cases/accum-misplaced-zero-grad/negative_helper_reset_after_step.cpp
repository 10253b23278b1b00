// RUN: %check_gradlint %s
// Helper that sets the gradients to none (`mutable_grad().reset()`), called in the
// boundary branch after step() (`continue` guard: the rest is the boundary branch).
#include <torch/torch.h>

namespace optim = torch::optim;

void clear(const std::vector<torch::Tensor> &params) {
  for (auto p : params)
    p.mutable_grad().reset();
}

void train(torch::nn::Linear model, optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int n = 4;
  for (int step = 1; step <= static_cast<int>(xs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(xs[step - 1]), ys[step - 1]);
    loss.div(n).backward();
    if (step % n != 0)
      continue;
    adam.step();
    clear(model->parameters());
  }
}

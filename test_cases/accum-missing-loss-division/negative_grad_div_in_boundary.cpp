// RUN: %check_gradlint %s
// The alternative of seed 000: the loss is summed, the accumulated gradients are
// divided by N with `p.mutable_grad().div_(N)` in the boundary branch before step().
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % N == 0) {
      for (auto &p : model->parameters())
        p.mutable_grad().div_(N);
      opt.step();
      opt.zero_grad();
    }
  }
}

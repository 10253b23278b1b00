// RUN: %check_gradlint %s
// `p.mutable_grad() = torch::Tensor()` at the window start, before the window's first
// backward() (guard spelled `0 == i % N`).
#include <torch/torch.h>

void train(torch::nn::Linear lin, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int N) {
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    if (0 == i % N) {
      for (auto &w : lin->parameters())
        w.mutable_grad() = torch::Tensor();
    }
    auto l = torch::huber_loss(lin->forward(xs[i]), ys[i]);
    (l / N).backward();
    if (i % N == N - 1)
      sgd.step();
  }
}

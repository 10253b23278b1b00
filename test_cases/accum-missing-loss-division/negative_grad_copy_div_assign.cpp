// RUN: %check_gradlint %s
// `auto g = p.grad(); g /= N;` shares storage with the gradient, so the accumulated
// gradient is divided in place before step() (range-for over pairs, separate counter).
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  const int N = 4;
  int seen = 0;
  for (const auto &[x, y] : data) {
    torch::mse_loss(model->forward(x), y).backward();
    if (++seen % N != 0)
      continue;
    for (auto &p : model->parameters()) {
      auto g = p.grad();
      g /= N;
    }
    opt.step();
    opt.zero_grad();
  }
}

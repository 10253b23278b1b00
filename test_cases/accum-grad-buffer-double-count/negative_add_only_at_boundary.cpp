// RUN: %check_gradlint %s
// Look-alike: .grad accumulates over the window as usual; only at the boundary is the finished
// window gradient added into a running total (used for a gradient-noise estimate), once per window.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> window_total;
  for (auto &p : params) window_total.push_back(torch::zeros_like(p));
  int windows = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        window_total[k] += params[k].grad();
      }
      ++windows;
      opt.step();
      opt.zero_grad();
    }
  }
  for (size_t k = 0; k < params.size(); ++k) {
    std::cout << "mean window grad norm " << (window_total[k] / windows).norm().item<double>()
              << "\n";
  }
}

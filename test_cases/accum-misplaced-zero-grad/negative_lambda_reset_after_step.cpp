// RUN: %check_gradlint %s
// A lambda performs the update: step() then Module::zero_grad(); it is called only
// in the boundary branch (`++micro == N` guard).
#include <torch/torch.h>

namespace F = torch::nn::functional;

void train(torch::nn::Sequential model, torch::optim::AdamW &adamw,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int N = 6;
  auto apply_update = [&]() {
    adamw.step();
    model->zero_grad();
  };
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = F::mse_loss(model->forward(xs[i]), ys[i]) * (1.0 / N);
    loss.backward();
    if (++micro == N) {
      apply_update();
      micro = 0;
    }
  }
}

// RUN: %check_gradlint %s
// The correct form: optimizer.zero_grad() right after step() in the boundary branch, so
// every window starts from zero gradients.
#include <torch/torch.h>

void fit_regressor(torch::nn::Linear regressor, const std::vector<torch::Tensor> &xs,
                   const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(regressor->parameters(), torch::optim::SGDOptions(0.05));
  constexpr int kAccumulate = 4;
  for (size_t batch = 0; batch < xs.size(); ++batch) {
    torch::Tensor loss = torch::mse_loss(regressor(xs[batch]), ys[batch]) / kAccumulate;
    loss.backward();
    if ((batch + 1) % kAccumulate == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

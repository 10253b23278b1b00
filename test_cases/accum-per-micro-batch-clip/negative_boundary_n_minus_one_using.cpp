// RUN: %check_gradlint %s
// clip_grad_value_ (via `using namespace`) in the `i % N == N - 1` boundary
// branch, before step(): clipped once per window, correct.
#include <torch/torch.h>

using namespace torch::nn::utils;

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys, int gas) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor l = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]) / gas;
    l.backward();
    if (i % gas == gas - 1) {
      clip_grad_value_(net->parameters(), 0.5);
      adam.step();
      adam.zero_grad();
    }
  }
}

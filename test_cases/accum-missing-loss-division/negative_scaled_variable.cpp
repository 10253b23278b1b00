// RUN: %check_gradlint %s
// A separate scaled variable is back-propagated (`auto scaled = loss / N;`); the
// unscaled loss is only logged. Optimizer through a pointer, `i % N == N - 1` guard.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, torch::optim::Optimizer *o,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int gas,
         std::vector<double> &log) {
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor crit = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]);
    log.push_back(crit.item<double>());
    auto scaled = crit / gas;
    scaled.backward();
    if (i % gas == gas - 1) {
      o->step();
      o->zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A helper of the translation unit returns the loss already divided by N.
#include <torch/torch.h>

static torch::Tensor micro_loss(torch::nn::Linear &m, const torch::Tensor &x,
                                const torch::Tensor &y, int n) {
  auto raw = torch::mse_loss(m->forward(x), y);
  return raw / n;
}

void train(torch::nn::Linear net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &a,
           const std::vector<torch::Tensor> &b) {
  const int window = 16;
  for (size_t t = 0; t < a.size(); ++t) {
    auto err = micro_loss(net, a[t], b[t], window);
    err.backward();
    const bool sync = (t + 1) % window == 0;
    if (sync) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

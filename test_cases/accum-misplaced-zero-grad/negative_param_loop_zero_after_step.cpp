// RUN: %check_gradlint %s
// Hand-written `p.mutable_grad().zero_()` over the parameters, after step() in the
// boundary branch selected by a bool flag.
#include <torch/torch.h>

void train(torch::nn::Linear net, torch::optim::Adam *adam, const std::vector<torch::Tensor> &a,
           const std::vector<torch::Tensor> &b) {
  const int gas = 8;
  for (size_t t = 0; t < a.size(); ++t) {
    auto err = torch::mse_loss(net->forward(a[t]), b[t]) / static_cast<float>(gas);
    err.backward();
    const bool boundary = (t + 1) % gas == 0;
    if (boundary) {
      adam->step();
      for (auto &p : net->parameters())
        if (p.mutable_grad().defined())
          p.mutable_grad().zero_();
    }
  }
}

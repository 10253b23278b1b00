// RUN: %check_gradlint %s
// A hand-written loss scaler: at the boundary it unscales the gradients, and
// when they hold an inf or a NaN it clears them and returns before step(),
// skipping the window. The reset and step() are never on the same path.
#include <torch/torch.h>

struct LossScaler {
  double scale = 1024.0;

  bool unscale_and_step(torch::optim::Optimizer &opt, const std::vector<torch::Tensor> &params) {
    bool finite = true;
    for (const auto &p : params) {
      p.grad().div_(scale);
      finite = finite && torch::isfinite(p.grad()).all().item<bool>();
    }
    if (!finite) {
      opt.zero_grad();
      scale /= 2;
      return false;
    }
    opt.step();
    return true;
  }
};

void train(torch::nn::Linear net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  LossScaler scaler;
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accum;
    (loss * scaler.scale).backward();
    if ((i + 1) % accum == 0) {
      scaler.unscale_and_step(sgd, net->parameters());
      sgd.zero_grad();
    }
  }
}

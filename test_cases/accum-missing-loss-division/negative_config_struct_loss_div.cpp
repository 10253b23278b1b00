// RUN: %check_gradlint %s
// N from a config struct member, loss divided by `static_cast<double>(cfg.gas)` in a
// training step function with a static counter.
#include <torch/torch.h>

struct Options {
  int gas;
};

void micro_step(const Options &cfg, torch::nn::Linear &m, torch::optim::SGD &o,
                const torch::Tensor &x, const torch::Tensor &y) {
  static int seen = 0;
  auto value = torch::mse_loss(m->forward(x), y) / static_cast<double>(cfg.gas);
  value.backward();
  if (++seen % cfg.gas == 0) {
    o.step();
    o.zero_grad();
  }
}

// RUN: %check_gradlint %s
// A counter-based window whose boundary multiplies every gradient by zero
// after step(): `mul_(0)` clears the gradients like zero_() does.
#include <torch/torch.h>

struct Regressor {
  torch::nn::Linear net{8, 1};
  torch::optim::Adam adam{net->parameters(), torch::optim::AdamOptions(1e-3)};
  int seen = 0;

  void observe(const torch::Tensor &x, const torch::Tensor &y) {
    (torch::mse_loss(net->forward(x), y) / 8).backward();
    if (++seen == 8) {
      adam.step();
      for (auto &weight : net->parameters())
        weight.mutable_grad().mul_(0);
      seen = 0;
    }
  }
};

// RUN: %check_gradlint %s
// Training step function: the reset runs at the top of the call only when the
// member counter is at a window start, i.e. before that window's first backward().
#include <torch/torch.h>

struct Stepper {
  torch::nn::Linear net;
  torch::optim::AdamW opt;
  int k;
  long calls = 0;

  Stepper(torch::nn::Linear n, int k_) : net(n), opt(n->parameters()), k(k_) {}

  void operator()(const torch::Tensor &x, const torch::Tensor &y) {
    if (calls % k == 0)
      opt.zero_grad();
    (torch::mse_loss(net->forward(x), y) / k).backward();
    if (++calls % k == 0)
      opt.step();
  }
};

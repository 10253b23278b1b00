// RUN: %check_gradlint %s
// Step function template with a static counter: the reset follows step() in the
// boundary branch; the optimizer is a template parameter.
#include <torch/torch.h>

template <typename Opt>
void micro_step(Opt &o, torch::nn::Linear m, const torch::Tensor &x, const torch::Tensor &y) {
  static int counter = 0;
  constexpr int kWindow = 4;
  auto loss = torch::mse_loss(m->forward(x), y);
  (loss / kWindow).backward();
  if (++counter % kWindow == 0) {
    o.step();
    o.zero_grad();
  }
}

void use(torch::optim::SGD &sgd, torch::nn::Linear m, const torch::Tensor &x,
         const torch::Tensor &y) {
  micro_step(sgd, m, x, y);
}

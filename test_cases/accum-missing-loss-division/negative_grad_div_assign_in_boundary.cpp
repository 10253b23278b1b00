// RUN: %check_gradlint %s
// Gradients divided in place with `grad /= N` (a reference to mutable_grad()) at the
// boundary, before step(); training step function with a member counter.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear m, int k)
      : model_(m), optimizer_(m->parameters(), torch::optim::AdamOptions(1e-3)), k_(k) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    torch::mse_loss(model_->forward(x), y).backward();
    if (++calls_ % k_ != 0)
      return;
    for (auto &p : model_->parameters()) {
      auto &grad = p.mutable_grad();
      grad /= k_;
    }
    optimizer_.step();
    optimizer_.zero_grad();
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam optimizer_;
  int k_;
  int calls_ = 0;
};

// RUN: %check_gradlint %s
// Training step function with a member counter: the reset runs only at the
// boundary, right after step() (member optimizer reached through this->).
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear m, int k)
      : model_(m), optimizer_(m->parameters(), torch::optim::SGDOptions(0.05)), k_(k) {}

  double train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / k_;
    loss.backward();
    if (++calls_ == k_) {
      this->optimizer_.step();
      this->optimizer_.zero_grad();
      calls_ = 0;
    }
    return loss.item<double>();
  }

private:
  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
  int k_;
  int calls_ = 0;
};

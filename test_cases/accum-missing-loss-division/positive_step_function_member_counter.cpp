// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// Training step function: backward() on every call, step() when the member counter
// reaches the boundary; each call is a micro-batch and the loss is not divided.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear m, int k)
      : model_(m), optimizer_(m->parameters(), torch::optim::AdamOptions(1e-3)), k_(k) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model_->forward(x), y);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / k_).backward();{{$}}
    if (++calls_ % k_ == 0) {
      this->optimizer_.step();
      this->optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam optimizer_;
  int k_;
  int calls_ = 0;
};

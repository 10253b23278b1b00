// RUN: %check_gradlint %s
// Training step function: each call is one micro-batch, the member counter defines
// the window. Resetting on every call discards the earlier calls' gradients.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear m, int k)
      : model_(m), optimizer_(m->parameters(), torch::optim::AdamOptions(1e-3)), k_(k) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    this->optimizer_.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}  void train_step(const torch::Tensor &x, const torch::Tensor &y) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(model_->forward(x), y) / k_;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++calls_ % k_ == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer_.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      this->optimizer_.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(model_->forward(x), y) / k_;
    loss.backward();
    if (++calls_ % k_ == 0)
      optimizer_.step();
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam optimizer_;
  int k_;
  int calls_ = 0;
};

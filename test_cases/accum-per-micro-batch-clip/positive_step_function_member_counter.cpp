// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A training-step function with a persistent member counter: each call is one
// micro-batch, and the clip runs on every call, not only at the boundary.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int accumulate)
      : net_(net), optimizer_(net->parameters(), torch::optim::AdamOptions(1e-3)),
        accumulate_(accumulate) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(net_->forward(x), y) / accumulate_;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net_->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++calls_ % accumulate_ == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(net_->parameters(), 1.0);{{$}}
    if (++calls_ % accumulate_ == 0) {
      this->optimizer_.step();
      this->optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear net_;
  torch::optim::Adam optimizer_;
  int accumulate_;
  int calls_ = 0;
};

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The trainer's update helper clears the gradients only when asked to, and its one call
// asks for nothing: `clear_after` keeps its default of false, so .grad is never reset.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int accumulate)
      : net_(net), opt_(net->parameters(), torch::optim::SGDOptions(0.1)), accumulate_(accumulate) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / accumulate_;
      loss.backward();
      if ((i + 1) % accumulate_ == 0)
        apply_update();
    }
  }

private:
  void apply_update(bool clear_after = false) {
    opt_.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
    // CHECK-FIXES-UNSAFE: {{^}}    opt_.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    opt_.zero_grad();{{$}}
    if (clear_after)
      opt_.zero_grad();
  }

  torch::nn::Linear net_;
  torch::optim::SGD opt_;
  int accumulate_;
};

void run(torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  Trainer trainer(net, 4);
  trainer.fit(xs, ys);
}

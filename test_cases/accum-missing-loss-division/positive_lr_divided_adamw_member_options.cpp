// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// (The confirmation cannot read the options a helper builds: the default rate
// runs divided by N, as the model reads the division, against it undivided.)
// A trainer sets its AdamW options' learning rate to lr / accum_steps_ and
// leaves the loss undivided: with an adaptive optimizer that is not the same.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, double lr, int accum_steps)
      : net_(net), accum_steps_(accum_steps), optimizer_(net->parameters(), options_for(lr)) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
      // CHECK-MESSAGES: :{{[0-9]+}}:19: note: the learning rate is divided by accum_steps_ here instead{{.*}}
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / accum_steps_).backward();{{$}}
      if ((i + 1) % accum_steps_ == 0) {
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }

private:
  torch::optim::AdamWOptions options_for(double lr) {
    torch::optim::AdamWOptions options(lr);
    options.lr(lr / accum_steps_);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
    // CHECK-FIXES: {{^}}    torch::optim::AdamWOptions options(lr);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    options.lr(lr);{{$}}
    return options;
  }

  torch::nn::Linear net_;
  int accum_steps_;
  torch::optim::AdamW optimizer_;
};

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// The trainer's step hook is a std::function member initialised in the constructor
// with a lambda that steps; the loop calls it once every k_ micro-batches, and the
// loss is not divided by k_.
#include <functional>
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, int k)
      : model_(model), optimizer_(model->parameters(), torch::optim::AdamOptions(1e-3)), k_(k),
        step_hook_([this] {
          optimizer_.step();
          optimizer_.zero_grad();
        }) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / k_).backward();{{$}}
      if ((i + 1) % k_ == 0)
        step_hook_();
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam optimizer_;
  int k_;
  std::function<void()> step_hook_;
};

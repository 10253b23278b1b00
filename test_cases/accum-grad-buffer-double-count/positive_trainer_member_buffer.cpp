// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: does not follow
// Trainer class keeping the accumulation buffer and micro-batch counter as fields; on_batch()
// adds .grad into the field each call, but .grad is reset only in the boundary branch.
// not-executable: the interpreter does not follow a buffer that is a class field.
#include <torch/torch.h>

class AccumTrainer {
 public:
  AccumTrainer(torch::nn::Linear model, int accum)
      : model_(model), opt_(model->parameters(), torch::optim::AdamOptions(1e-3)), accum_(accum) {
    for (auto &p : model_->parameters()) {
      grad_acc_.push_back(torch::zeros_like(p));
    }
  }

  void on_batch(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    auto params = model_->parameters();
    for (size_t i = 0; i < params.size(); ++i) {
      grad_acc_[i] += params[i].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      grad_acc_[i] += params[i].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[i].grad().zero_();{{$}}
    }
    if (++micro_ == accum_) {
      for (size_t i = 0; i < params.size(); ++i) {
        params[i].mutable_grad() = grad_acc_[i].clone();
        grad_acc_[i].zero_();
      }
      opt_.step();
      opt_.zero_grad();
      micro_ = 0;
    }
  }

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t b = 0; b < xs.size(); ++b) {
      on_batch(xs[b], ys[b]);
    }
  }

 private:
  torch::nn::Linear model_;
  torch::optim::Adam opt_;
  std::vector<torch::Tensor> grad_acc_;
  int accum_;
  int micro_ = 0;
};

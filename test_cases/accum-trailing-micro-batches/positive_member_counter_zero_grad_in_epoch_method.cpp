// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 10 \(20\.0%\) micro-batches never reached a step
// A per-epoch method of a trainer whose member counter runs on across calls, and which starts
// with zero_grad(): the window the previous epoch left open is discarded at every call.
#include <torch/torch.h>

class Trainer {
 public:
  Trainer(torch::nn::Linear model, int accum)
      : model_(model), opt_(model->parameters(), 0.05), accum_(accum) {}

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    opt_.zero_grad();
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]) / accum_;
      loss.backward();
      if (++micro_ % accum_ == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of the loop never {{.*}} [accum-trailing-micro-batches]
        opt_.step();
        opt_.zero_grad();
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (micro_ % accum_ != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt_.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt_.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int n) {
    for (int e = 0; e < n; ++e)
      epoch(xs, ys);
  }

 private:
  torch::nn::Linear model_;
  torch::optim::SGD opt_;
  int accum_;
  int64_t micro_ = 0;
};

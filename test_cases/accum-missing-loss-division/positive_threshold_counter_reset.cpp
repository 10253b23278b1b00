// RUN: %check_gradlint %s
// A counter compared with `>=` and reset to 0 in the branch is a real window:
// backward() runs on every micro-batch, step() once every `accum` of them, and the
// loss is not divided.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int accum)
      : net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)), accum_(accum) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / accum_).backward();{{$}}
      if (++micro_ >= accum_) {
        optimizer_.step();
        optimizer_.zero_grad();
        micro_ = 0;
      }
    }
  }

private:
  torch::nn::Linear net_;
  torch::optim::SGD optimizer_;
  int accum_;
  int micro_ = 0;
};

// RUN: %check_gradlint %s
// A Trainer's private helper clear_grads() (no backward(), no step()) is called on
// every micro-batch from the loop in fit(): reported at the helper call.
#include <torch/torch.h>

using Opt = torch::optim::SGD;

class Trainer {
public:
  Trainer(torch::nn::Linear m) : net_(m), opt_(m->parameters(), 0.1) {}
  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    const int gas = 4;
    for (size_t i = 0; i < xs.size(); ++i) {
      clear_grads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < xs.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / gas;{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % gas == 0) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        opt_.step();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        clear_grads();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / gas;
      loss.backward();
      if ((i + 1) % gas == 0)
        opt_.step();
    }
  }

private:
  void clear_grads() { opt_.zero_grad(); }
  torch::nn::Linear net_;
  Opt opt_;
};

// RUN: %check_gradlint %s
// A braced reset at the window's start, `if (micro == 0) { ... }`, written after backward():
// it discards each window's first gradient. The `if` goes and the reset follows step().
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int window = 4;
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / window;
    loss.backward();
    if (micro == 0) {
      opt.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset at the {{.*}} [accum-misplaced-zero-grad]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++micro == window) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    if (++micro == window) {
      opt.step();
      micro = 0;
    }
  }
}

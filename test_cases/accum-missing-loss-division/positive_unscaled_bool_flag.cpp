// RUN: %check_gradlint %s
// Boundary selected by a bool flag computed from the counter; unscaled loss.
#include <torch/torch.h>

void train(torch::nn::Linear net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &a,
           const std::vector<torch::Tensor> &b) {
  const int window = 16;
  for (size_t t = 0; t < a.size(); ++t) {
    auto err = torch::mse_loss(net->forward(a[t]), b[t]);
    err.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto err = torch::mse_loss(net->forward(a[t]), b[t]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (err / window).backward();{{$}}
    const bool sync = (t + 1) % window == 0;
    if (sync) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// clip_grad_value_ reached through `using namespace torch::nn::utils;` runs on
// every micro-batch; the guard is the `i % N == N - 1` form.
#include <torch/torch.h>

using namespace torch::nn::utils;

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys, int gas) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor out = net->forward(xs[i]);
    torch::Tensor l = torch::nn::functional::cross_entropy(out, ys[i]) / gas;
    l.backward();
  clip_grad_value_(net->parameters(), 0.5);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    l.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (i % gas == gas - 1) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      clip_grad_value_(net->parameters(), 0.5);{{$}}
    if (i % gas == gas - 1) {
      adam.step();
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// Unscaled loss, guard `i % N == N - 1`, optimizer through a pointer.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, torch::optim::Optimizer *o,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int gas) {
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor crit = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]);
    crit.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    torch::Tensor crit = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (crit / gas).backward();{{$}}
    if (i % gas == gas - 1) {
      o->step();
      o->zero_grad();
    }
  }
}

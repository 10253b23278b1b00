// RUN: %check_gradlint %s
// Free step function with a static counter (the loop is in the caller, maybe another
// TU): a window of 4 calls, undivided loss.
#include <torch/torch.h>

void micro_step(torch::nn::Linear &m, torch::optim::SGD &o, const torch::Tensor &x,
                const torch::Tensor &y) {
  static int counter = 0;
  constexpr int kWindow = 4;
  torch::Tensor value = torch::mse_loss(m->forward(x), y);
  value.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
  // CHECK-FIXES: {{^}}  torch::Tensor value = torch::mse_loss(m->forward(x), y);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  (value / kWindow).backward();{{$}}
  if (++counter == kWindow) {
    counter = 0;
    o.step();
    o.zero_grad();
  }
}

// RUN: %check_gradlint %s
// The reset sits in the boundary branch but BEFORE step(): it wipes the whole
// window's gradients, so step() applies nothing (pre-increment counter guard).
#include <torch/torch.h>

void run_epoch(torch::nn::Linear &layer, torch::optim::Optimizer &updater,
               const std::vector<std::pair<torch::Tensor, torch::Tensor>> &pairs) {
  constexpr int kMicro = 8;
  int micro = 0;
  for (const auto &pr : pairs) {
    auto err = torch::mse_loss(layer->forward(pr.first), pr.second);
    (err / kMicro).backward();
    if (++micro == kMicro) {
      // CHECK-FIXES: {{^}}    if (++micro == kMicro) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      updater.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      updater.zero_grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      micro = 0;{{$}}
      updater.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs in the boundary branch before step() {{.*}} [accum-misplaced-zero-grad]
      updater.step();
      micro = 0;
    }
  }
}

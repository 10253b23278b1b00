// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// Unscaled loss in a while loop, guard written `0 == (step + 1) % N`.
#include <torch/torch.h>

void loop(torch::nn::Linear lin, torch::optim::AdamW &adamw, const std::vector<torch::Tensor> &f,
          const std::vector<torch::Tensor> &g) {
  const int64_t every = 8;
  int64_t step = 0;
  while (step < static_cast<int64_t>(f.size())) {
    auto objective = torch::l1_loss(lin->forward(f[step]), g[step]);
    objective.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto objective = torch::l1_loss(lin->forward(f[step]), g[step]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (objective / every).backward();{{$}}
    if (0 == (step + 1) % every) {
      adamw.step();
      adamw.zero_grad();
    }
    ++step;
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The boundary test lives in a helper predicate `should_step(i)`; the step itself is
// fine, but the gradients are never cleared between windows.
#include <torch/torch.h>

namespace {
constexpr int kGradAccum = 4;

bool should_step(int64_t i) { return (i + 1) % kGradAccum == 0; }
} // namespace

void train_mlp(torch::nn::Sequential mlp, const std::vector<torch::Tensor> &x,
               const std::vector<torch::Tensor> &y) {
  torch::optim::RMSprop rms(mlp->parameters(), torch::optim::RMSpropOptions(1e-3));
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    auto loss = torch::l1_loss(mlp->forward(x[i]), y[i]) / kGradAccum;
    loss.backward();
    if (should_step(i)) {
      rms.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      rms.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      rms.zero_grad();{{$}}
    }
  }
}

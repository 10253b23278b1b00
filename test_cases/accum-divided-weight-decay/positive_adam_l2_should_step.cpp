// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.125 as written vs 0.5
// Adam's (coupled, L2) weight decay divided by the accumulation steps; the boundary is a
// helper predicate should_step(). The L2 term is added once per step(), so it is 4x weak.
#include <torch/torch.h>

namespace {
constexpr int64_t kAccumSteps = 4;
bool should_step(int64_t it) { return (it + 1) % kAccumSteps == 0; }
} // namespace

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(model->parameters(),
                          torch::optim::AdamOptions(0.05).weight_decay(0.5 / kAccumSteps));
  // CHECK-MESSAGES: :[[@LINE-1]]:76: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  torch::optim::Adam adam(model->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}                          torch::optim::AdamOptions(0.05).weight_decay(0.5));{{$}}
  for (int64_t it = 0; it < static_cast<int64_t>(xs.size()); ++it) {
    auto loss = torch::mse_loss(model->forward(xs[it]), ys[it]) / kAccumSteps;
    loss.backward();
    if (should_step(it)) {
      adam.step();
      adam.zero_grad();
    }
  }
}

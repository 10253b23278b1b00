// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0\.075 as written vs 0\.3
// The decay is divided into a variable first (`double wd = 0.3 / N;`) and then passed to
// weight_decay(wd); the boundary comes from a helper predicate. Only the options read `wd`,
// so the fix-it drops the division from its initializer, and the fixed loop confirms it.
#include <torch/torch.h>

static const int kGradAccumSteps = 4;

static bool should_step(size_t i) { return (i + 1) % kGradAccumSteps == 0; }

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  double wd = 0.3 / kGradAccumSteps;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}           const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double wd = 0.3;{{$}}
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05).weight_decay(wd));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / kGradAccumSteps;
    loss.backward();
    if (should_step(i)) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

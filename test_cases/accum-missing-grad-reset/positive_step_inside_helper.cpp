// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// step() lives in a helper `apply_update()` called at the boundary; the helper only steps
// and logs. Reported at the step() inside the helper; the fix-it (unsafe: the helper may be
// shared) adds the reset right after it there.
#include <torch/torch.h>
#include <iostream>

static int g_updates = 0;

void apply_update(torch::optim::Optimizer &optimizer) {
  optimizer.step();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
  // CHECK-FIXES-UNSAFE: {{^}}  optimizer.step();{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  optimizer.zero_grad();{{$}}
  ++g_updates;
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accumulation_steps = 2;
  size_t i = 0;
  while (i < xs.size()) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accumulation_steps;
    loss.backward();
    if ((i + 1) % accumulation_steps == 0)
      apply_update(sgd);
    ++i;
  }
  std::cout << g_updates << " updates\n";
}

// RUN: %check_gradlint %s
// An optional scheduler held by a raw pointer, stepped on every micro-batch under
// `if (sched != nullptr) { ... }`: the null check moves with it, right after the optimizer's step().
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::SGD &sgd, torch::optim::StepLR *sched,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if (sched != nullptr) {
      sched->step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: learning-rate scheduler steps on {{.*}} [accum-scheduler-per-micro-batch]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (i % accum_steps == accum_steps - 1) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (sched != nullptr) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        sched->step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    if (i % accum_steps == accum_steps - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

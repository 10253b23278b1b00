// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.125x
// Optimizer and StepLR both held in std::unique_ptr; the scheduler steps
// after every backward(), N times per optimizer step.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  auto opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.1));
  auto sched = std::make_unique<torch::optim::StepLR>(*opt, 1, 0.5);
  const int n = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / n;
    loss.backward();
    sched->step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % n == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt->step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      sched->step();{{$}}
    if ((i + 1) % n == 0) {
      opt->step();
      opt->zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// The scheduler is optional; the test that it exists does not depend on the
// micro-batch, so when it exists it steps on every micro-batch. The unsafe fix-it
// moves the `if` with the call; the run takes the `if` as true (the branch that
// reaches the finding) in both loops.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys,
           bool decay_lr) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  std::unique_ptr<torch::optim::StepLR> scheduler;
  if (decay_lr)
    scheduler = std::make_unique<torch::optim::StepLR>(sgd, 1, 0.5);
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if (scheduler)
      scheduler->step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (scheduler){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        scheduler->step();{{$}}
    if ((i + 1) % accum_steps == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.125x
// StepLR stepped right after backward(), outside the `(i + 1) % N == 0` branch:
// it advances on every micro-batch while the optimizer steps once per window.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/1, /*gamma=*/0.5);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    scheduler.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      scheduler.step();{{$}}
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.250x
// The `continue` skips the update on non-boundary micro-batches, but the
// scheduler is stepped above that guard, so it runs on all of them.
#include <torch/torch.h>

void run_epoch(torch::nn::Linear model, std::vector<torch::Tensor> &batches,
               std::vector<torch::Tensor> &labels) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::optim::StepLR decay(sgd, /*step_size=*/1, /*gamma=*/0.5);
  const int grad_accum = 3;
  for (int step = 1; step <= static_cast<int>(batches.size()); ++step) {
    auto pred = model->forward(batches[step - 1]);
    auto loss = torch::mse_loss(pred, labels[step - 1]);
    (loss / grad_accum).backward();
    decay.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    (loss / grad_accum).backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (step % grad_accum != 0){{$}}
    if (step % grad_accum != 0)
      continue;
    sgd.step();
    // CHECK-FIXES: {{^}}    sgd.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    decay.step();{{$}}
    sgd.zero_grad();
  }
}

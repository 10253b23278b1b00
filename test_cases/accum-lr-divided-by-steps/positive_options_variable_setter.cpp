// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// An options variable whose lr is set with `.lr(base_lr / N)` before the optimizer
// is built from it; the loop skips non-boundary micro-batches with `continue`.
// base_lr is not a constant: the confirmation runs Adam's default lr divided by
// N, as the setter divides it.
#include <torch/torch.h>

void run_epoch(torch::nn::Linear model, std::vector<torch::Tensor> &batches,
               std::vector<torch::Tensor> &labels, double base_lr) {
  const int grad_accum = 4;
  torch::optim::AdamOptions options;
  options.lr(base_lr / grad_accum);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  torch::optim::AdamOptions options;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  options.lr(base_lr);{{$}}
  options.eps(1e-6);
  torch::optim::Adam adam(model->parameters(), options);
  for (int step = 1; step <= static_cast<int>(batches.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(batches[step - 1]), labels[step - 1]);
    (loss / grad_accum).backward();
    if (step % grad_accum != 0)
      continue;
    adam.step();
    adam.zero_grad();
  }
}

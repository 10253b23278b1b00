// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: another constant factor
// The loss is divided by `accum_steps` (4) but the window is `gas` (8) micro-batches:
// the division does not match the window, the update is 2x the large-batch one.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  const int gas = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / gas).backward();{{$}}
    if ((i + 1) % gas == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

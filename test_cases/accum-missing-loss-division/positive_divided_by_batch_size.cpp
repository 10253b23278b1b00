// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: another constant factor
// The loss IS divided, but by the batch size, not by the accumulation steps: the
// window still sums N micro-batch gradients.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  const int64_t batch_size = 32;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto summed = torch::mse_loss(model->forward(xs[i]), ys[i], torch::Reduction::Sum);
    auto loss = summed / batch_size;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = summed / batch_size;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accum_steps).backward();{{$}}
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

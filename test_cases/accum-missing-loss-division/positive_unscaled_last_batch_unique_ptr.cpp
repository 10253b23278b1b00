// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// Boundary with the last-batch extension, optimizer in a std::unique_ptr, loss
// not divided.
#include <memory>
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters());
  const int num_batches = static_cast<int>(xs.size());
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accum_steps).backward();{{$}}
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt->step();
      opt->zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// Adam's learning rate is divided by accum_steps instead of the loss. Adam
// normalises the gradient's scale, so this does not compensate: the summed
// gradient is still N times too large, and every update is N times too small.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double lr) {
  const int accum_steps = 4;
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(lr / accum_steps));
  // CHECK-MESSAGES: :[[@LINE-1]]:76: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int accum_steps = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(lr));{{$}}
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-MESSAGES: :12:76: note: the learning rate is divided by accum_steps here instead; with an adaptive optimizer (Adam, AdamW, RMSprop, Adagrad) that does not compensate for the missing division, it makes every update accum_steps times smaller
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accum_steps).backward();{{$}}
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

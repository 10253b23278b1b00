// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.075 as written vs 0.3
// AdamW built with `weight_decay(weight_decay / accum_steps)` as if decay acted per
// micro-batch; it acts once per step(), so it ends up accum_steps times too weak.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  const double weight_decay = 0.3;
  torch::optim::AdamW optimizer(
      model->parameters(),
      torch::optim::AdamWOptions(0.05).weight_decay(weight_decay / accum_steps));
  // CHECK-MESSAGES: :[[@LINE-1]]:66: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}      model->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}      torch::optim::AdamWOptions(0.05).weight_decay(weight_decay));{{$}}
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

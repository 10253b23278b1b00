// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// Adam's learning rate divided by the accumulation steps right in AdamOptions:
// Adam normalises the gradient's scale, so every update is N times smaller.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  const double lr = 1e-3;
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(lr / accum_steps));
  // CHECK-MESSAGES: :[[@LINE-1]]:82: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const double lr = 1e-3;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(lr));{{$}}
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

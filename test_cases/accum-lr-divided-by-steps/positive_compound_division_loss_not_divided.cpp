// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: Adam normalises the gradient's scale
// `lr /= accum_steps` as a stand-in for dividing the loss, which is left undivided:
// with Adam that does not compensate, so both the lr and the loss checks fire.
// The fix-it deletes the `lr /=` (the stand-in rate runs divided by N as the model
// reads it); the undivided loss alone has no effect on Adam's update (not-confirmed).
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, double lr) {
  const int accum_steps = 4;
  lr /= accum_steps;
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(lr));
  int seen = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accum_steps).backward();{{$}}
    if (++seen < accum_steps)
      continue;
    seen = 0;
    adam.step();
    adam.zero_grad();
  }
}

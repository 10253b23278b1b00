// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// The learning rate is re-set on the param group after construction:
// `param_groups()[0].options().set_lr(lr / N)`; the optimizer is AdamW. The fix-it
// makes it set_lr(lr); the runtime does not run set_lr(): the rate read from the
// constructor runs divided by N, as the model reads the division in set_lr().
#include <torch/torch.h>

namespace {
constexpr int kAccumulate = 4;
bool should_step(size_t i) { return (i + 1) % kAccumulate == 0; }
} // namespace

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, double lr) {
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(lr));
  optimizer.param_groups()[0].options().set_lr(lr / kAccumulate);
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(lr));{{$}}
  // CHECK-FIXES-NEXT: {{^}}  optimizer.param_groups()[0].options().set_lr(lr);{{$}}
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / kAccumulate;
    loss.backward();
    if (should_step(i)) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

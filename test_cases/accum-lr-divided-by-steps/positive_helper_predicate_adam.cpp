// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.500x
// A helper predicate `is_update_step(i)` marks the boundary (negated, with an
// early `continue`); Adam was built with lr / N.
#include <torch/torch.h>

namespace {
constexpr int kGradAccum = 2;
inline bool is_update_step(int64_t i) { return (i + 1) % kGradAccum == 0; }
} // namespace

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3 / kGradAccum));
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}           std::vector<torch::Tensor> &targets) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));{{$}}
  for (int64_t i = 0; i < static_cast<int64_t>(inputs.size()); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(inputs[i]), targets[i]).div(kGradAccum);
    loss.backward();
    if (!is_update_step(i))
      continue;
    adam.step();
    adam.zero_grad();
  }
}

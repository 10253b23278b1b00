// RUN: %check_gradlint %s
// Actor-critic with one optimizer each, both accumulating over the same window; each
// model's gradients are cleared through the module (not the optimizer) after the steps.
#include <torch/torch.h>

void update(torch::nn::Sequential actor, torch::nn::Sequential critic,
            const std::vector<torch::Tensor> &states, const std::vector<torch::Tensor> &returns) {
  torch::optim::Adam actor_opt(actor->parameters(), torch::optim::AdamOptions(1e-4));
  torch::optim::Adam critic_opt(critic->parameters(), torch::optim::AdamOptions(1e-3));
  const int64_t window = 4;
  for (int64_t t = 0; t < static_cast<int64_t>(states.size()); ++t) {
    auto value = critic->forward(states[t]);
    auto critic_loss = torch::mse_loss(value, returns[t]) / window;
    critic_loss.backward();
    auto advantage = (returns[t] - value).detach();
    auto actor_loss = -(actor->forward(states[t]) * advantage).mean() / window;
    actor_loss.backward();
    if ((t + 1) % window == 0) {
      critic_opt.step();
      actor_opt.step();
      critic->zero_grad();
      actor->zero_grad();
    }
  }
}

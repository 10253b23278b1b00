// RUN: %check_gradlint %s
// Actor-critic update: the critic and the actor accumulate over their own windows
// with their own optimizers. Each optimizer is reset at its window start, before
// its own backward(); the actor's reset runs after the critic's backward(), which
// feeds only the critic's window.
#include <torch/torch.h>

void update(torch::nn::Linear actor, torch::nn::Linear critic, torch::optim::Adam &actor_opt,
            torch::optim::Adam &critic_opt, const std::vector<torch::Tensor> &states,
            const std::vector<torch::Tensor> &returns, int accum) {
  for (size_t i = 0; i < states.size(); ++i) {
    auto state = states[i];
    if (i % accum == 0)
      critic_opt.zero_grad();
    auto value = critic->forward(state);
    auto critic_loss = torch::mse_loss(value, returns[i]) / accum;
    critic_loss.backward();
    if ((i + 1) % accum == 0)
      critic_opt.step();

    state = states[i].detach();
    if (i % accum == 0)
      actor_opt.zero_grad();
    auto actor_loss = -(actor->forward(state) * value.detach()).mean() / accum;
    actor_loss.backward();
    if ((i + 1) % accum == 0)
      actor_opt.step();
  }
}

// A2C variant of cpprl with separate actor and critic networks and optimizers.
// The critic takes an RMSprop step on every time chunk of the rollout; the actor
// accumulates its policy gradient over all chunks and steps once per update.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

struct SeparateActorCriticImpl : torch::nn::Module {
  SeparateActorCriticImpl(int64_t obs_size, int64_t num_actions, int64_t hidden) {
    actor = register_module("actor", torch::nn::Sequential(torch::nn::Linear(obs_size, hidden), torch::nn::Tanh(),
                                                           torch::nn::Linear(hidden, num_actions)));
    critic = register_module("critic", torch::nn::Sequential(torch::nn::Linear(obs_size, hidden), torch::nn::Tanh(),
                                                             torch::nn::Linear(hidden, 1)));
  }
  torch::Tensor log_probs(const torch::Tensor& obs) { return torch::log_softmax(actor->forward(obs), -1); }
  torch::Tensor value(const torch::Tensor& obs) { return critic->forward(obs); }
  torch::nn::Sequential actor{nullptr}, critic{nullptr};
};
TORCH_MODULE(SeparateActorCritic);

class A2C {
 public:
  A2C(SeparateActorCritic& policy, float value_loss_coef, float entropy_coef, float actor_lr, float critic_lr,
      float max_grad_norm, int num_chunks)
      : policy(policy),
        value_loss_coef(value_loss_coef),
        entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm),
        original_actor_lr(actor_lr),
        num_chunks(num_chunks),
        actor_optimizer(policy->actor->parameters(), torch::optim::RMSpropOptions(actor_lr).eps(1e-5).alpha(0.99)),
        critic_optimizer(policy->critic->parameters(), torch::optim::RMSpropOptions(critic_lr).eps(1e-5).alpha(0.99)) {}

  std::vector<UpdateDatum> update(RolloutStorage& rollouts, float decay_level = 1) {
    for (auto& group : actor_optimizer.param_groups()) {
      group.options().set_lr(original_actor_lr * decay_level);
    }

    const int64_t num_steps = rollouts.get_rewards().size(0);
    const int64_t num_processes = rollouts.get_rewards().size(1);
    auto obs_chunks = rollouts.get_observations().slice(0, 0, num_steps).chunk(num_chunks, 0);
    auto action_chunks = rollouts.get_actions().chunk(num_chunks, 0);
    auto return_chunks = rollouts.get_returns().slice(0, 0, num_steps).chunk(num_chunks, 0);
    const int64_t chunks = static_cast<int64_t>(obs_chunks.size());

    float value_loss_sum = 0, action_loss_sum = 0, entropy_sum = 0;
    actor_optimizer.zero_grad();
    for (int64_t c = 0; c < chunks; ++c) {
      auto obs = obs_chunks[c].reshape({-1, obs_chunks[c].size(-1)});
      auto returns = return_chunks[c].reshape({-1, 1});

      // Critic: a full step on this chunk
      critic_optimizer.zero_grad();
      auto values = policy->value(obs);
      auto value_loss = (returns - values).pow(2).mean() * value_loss_coef;
      value_loss.backward();
      torch::nn::utils::clip_grad_norm_(policy->critic->parameters(), max_grad_norm);
      critic_optimizer.step();

      // Actor: this chunk's share of the update's policy gradient
      auto log_probs = policy->log_probs(obs);
      auto action_log_probs = log_probs.gather(-1, action_chunks[c].reshape({-1, 1}));
      auto advantages = (returns - values).detach();
      auto entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
      auto action_loss = -(advantages * action_log_probs).mean() - entropy_coef * entropy;
      (action_loss / static_cast<double>(chunks)).backward();

      value_loss_sum += value_loss.item<float>();
      action_loss_sum += action_loss.item<float>();
      entropy_sum += entropy.item<float>();
    }
    torch::nn::utils::clip_grad_norm_(policy->actor->parameters(), max_grad_norm);
    actor_optimizer.step();

    (void)num_processes;
    const float n = static_cast<float>(chunks);
    return {{"Value loss", value_loss_sum / n}, {"Action loss", action_loss_sum / n}, {"Entropy", entropy_sum / n}};
  }

 private:
  SeparateActorCritic& policy;
  float value_loss_coef, entropy_coef, max_grad_norm, original_actor_lr;
  int num_chunks;
  torch::optim::RMSprop actor_optimizer;
  torch::optim::RMSprop critic_optimizer;
};

}  // namespace cpprl

int main() {
  cpprl::SeparateActorCritic policy(4, 2, 64);
  cpprl::RolloutStorage storage(20, 16, 4);
  cpprl::A2C a2c(policy, 0.5f, 0.01f, 7e-4f, 1e-3f, 0.5f, 5);
  for (int i = 0; i < 1000; ++i) a2c.update(storage, 1.0f - i / 1000.0f);
}

// A2C update of cpprl. The rollout is evaluated in time chunks so that long
// rollouts with many processes fit in memory; one RMSprop step per update.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

class A2C {
 private:
  Policy& policy;
  float actor_loss_coef, value_loss_coef, entropy_coef, max_grad_norm, original_learning_rate;
  int num_chunks;
  std::unique_ptr<torch::optim::RMSprop> optimizer;

 public:
  A2C(Policy& policy, float actor_loss_coef, float value_loss_coef, float entropy_coef, float learning_rate,
      float epsilon = 1e-8, float alpha = 0.99, float max_grad_norm = 0.5, int num_chunks = 4)
      : policy(policy),
        actor_loss_coef(actor_loss_coef),
        value_loss_coef(value_loss_coef),
        entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm),
        original_learning_rate(learning_rate),
        num_chunks(num_chunks),
        optimizer(std::make_unique<torch::optim::RMSprop>(
            policy->parameters(), torch::optim::RMSpropOptions(learning_rate).eps(epsilon).alpha(alpha))) {}

  std::vector<UpdateDatum> update(RolloutStorage& rollouts, float decay_level = 1) {
    for (auto& group : optimizer->param_groups()) {
      group.options().set_lr(original_learning_rate * decay_level);
    }

    auto full_obs_shape = rollouts.get_observations().sizes();
    std::vector<int64_t> obs_shape(full_obs_shape.begin() + 2, full_obs_shape.end());
    obs_shape.insert(obs_shape.begin(), -1);
    auto action_shape = rollouts.get_actions().size(-1);
    auto rewards_shape = rollouts.get_rewards().sizes();
    int num_steps = rewards_shape[0];
    int num_processes = rewards_shape[1];

    if (policy->using_observation_normalizer()) {
      policy->update_observation_normalizer(rollouts.get_observations());
    }

    auto observations = rollouts.get_observations().slice(0, 0, -1);
    auto hidden_states = rollouts.get_hidden_states().slice(0, 0, -1);
    auto masks = rollouts.get_masks().slice(0, 0, -1);
    auto returns = rollouts.get_returns().slice(0, 0, -1);

    auto obs_chunks = observations.chunk(num_chunks, 0);
    auto hidden_chunks = hidden_states.chunk(num_chunks, 0);
    auto mask_chunks = masks.chunk(num_chunks, 0);
    auto action_chunks = rollouts.get_actions().chunk(num_chunks, 0);
    auto return_chunks = returns.chunk(num_chunks, 0);

    float value_loss_sum = 0, action_loss_sum = 0, entropy_sum = 0;
    optimizer->zero_grad();
    for (size_t c = 0; c < obs_chunks.size(); ++c) {
      const int64_t chunk_steps = obs_chunks[c].size(0);
      auto evaluate_result = policy->evaluate_actions(
          obs_chunks[c].reshape(obs_shape), hidden_chunks[c].reshape({-1, policy->get_hidden_size()}),
          mask_chunks[c].reshape({-1, 1}), action_chunks[c].reshape({-1, action_shape}));
      auto values = evaluate_result[0].view({chunk_steps, num_processes, 1});
      auto action_log_probs = evaluate_result[1].view({chunk_steps, num_processes, 1});

      // Advantages are not normalised in A2C
      auto advantages = return_chunks[c] - values;
      auto value_loss = advantages.pow(2).mean();
      auto action_loss = -(advantages.detach() * action_log_probs).mean();
      auto loss = (value_loss * value_loss_coef + action_loss * actor_loss_coef - evaluate_result[2] * entropy_coef);

      (loss / static_cast<double>(obs_chunks.size())).backward();
      torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);

      value_loss_sum += value_loss.item().toFloat();
      action_loss_sum += action_loss.item().toFloat();
      entropy_sum += evaluate_result[2].item().toFloat();
    }
    optimizer->step();

    const float n = static_cast<float>(obs_chunks.size());
    (void)num_steps;
    return {{"Value loss", value_loss_sum / n}, {"Action loss", action_loss_sum / n}, {"Entropy", entropy_sum / n}};
  }
};

}  // namespace cpprl

int main() {
  cpprl::Policy policy(4, 2);
  cpprl::RolloutStorage storage(20, 16, 4);
  cpprl::A2C a2c(policy, 1.0f, 0.5f, 1e-3f, 7e-4f, 1e-5f, 0.99f, 0.5f, 4);
  for (int i = 0; i < 100; ++i) {
    a2c.update(storage, 1.0f - i / 100.0f);
  }
}

// Training client of cpprl's gym example: collects rollouts from the environment
// server and trains an A2C agent. With many small rollouts the policy gradient is
// noisy, so A2C::update() accumulates `rollouts_per_update` rollouts per RMSprop step.
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cpprl_lite.hpp"
#include "gym_lite.hpp"

namespace cpprl {

class A2C {
 public:
  A2C(Policy& policy, float value_loss_coef, float entropy_coef, float learning_rate, float max_grad_norm,
      int rollouts_per_update)
      : policy(policy),
        value_loss_coef(value_loss_coef),
        entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm),
        original_learning_rate(learning_rate),
        rollouts_per_update(rollouts_per_update),
        optimizer(policy->parameters(), torch::optim::RMSpropOptions(learning_rate).eps(1e-5).alpha(0.99)) {}

  // Called once per collected rollout; returns true when the weights changed.
  bool update(RolloutStorage& rollouts, float decay_level, std::vector<UpdateDatum>& log) {
    for (auto& group : optimizer.param_groups()) {
      group.options().set_lr(original_learning_rate * decay_level);
    }
    const int64_t num_steps = rollouts.get_rewards().size(0);
    const int64_t num_processes = rollouts.get_rewards().size(1);
    auto obs = rollouts.get_observations().slice(0, 0, num_steps);
    auto evaluate_result = policy->evaluate_actions(
        obs.reshape({num_steps * num_processes, -1}), rollouts.get_hidden_states().slice(0, 0, num_steps).reshape({-1, 1}),
        rollouts.get_masks().slice(0, 0, num_steps).reshape({-1, 1}), rollouts.get_actions().reshape({-1, 1}));
    auto values = evaluate_result[0].view({num_steps, num_processes, 1});
    auto action_log_probs = evaluate_result[1].view({num_steps, num_processes, 1});
    auto advantages = rollouts.get_returns().slice(0, 0, num_steps) - values;
    auto value_loss = advantages.pow(2).mean();
    auto action_loss = -(advantages.detach() * action_log_probs).mean();
    auto loss = value_loss * value_loss_coef + action_loss - evaluate_result[2] * entropy_coef;

    torch::autograd::backward({loss / static_cast<double>(rollouts_per_update)});
    log = {{"Value loss", value_loss.item<float>()},
           {"Action loss", action_loss.item<float>()},
           {"Entropy", evaluate_result[2].item<float>()}};

    if (++rollouts_seen < rollouts_per_update) {
      return false;
    }
    torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);
    optimizer.step();
    optimizer.zero_grad();
    rollouts_seen = 0;
    return true;
  }

 private:
  Policy& policy;
  float value_loss_coef, entropy_coef, max_grad_norm, original_learning_rate;
  int rollouts_per_update;
  int rollouts_seen = 0;
  torch::optim::RMSprop optimizer;
};

}  // namespace cpprl

int main() {
  const int num_envs = 8, batch_size = 5, rollouts_per_update = 4;
  const int64_t obs_size = 4, num_actions = 2, max_frames = 10000000;
  const float discount_factor = 0.99f;

  gym_lite::VecEnv env(num_envs, obs_size, num_actions);
  cpprl::Policy policy(obs_size, num_actions);
  cpprl::RolloutStorage storage(batch_size, num_envs, obs_size);
  cpprl::A2C a2c(policy, 0.5f, 1e-3f, 7e-4f, 0.5f, rollouts_per_update);

  auto observation = env.reset();
  auto start_time = std::chrono::high_resolution_clock::now();
  const int64_t num_updates = max_frames / (batch_size * num_envs);
  int64_t weight_updates = 0;
  for (int64_t update = 0; update < num_updates; ++update) {
    for (int step = 0; step < batch_size; ++step) {
      torch::NoGradGuard no_grad;
      auto act_result = policy->act(observation, torch::Tensor(), torch::ones({num_envs, 1}));
      auto [next_obs, reward, done] = env.step(act_result[1]);
      observation = next_obs;
      (void)reward;
      (void)done;
    }
    (void)discount_factor;
    const float decay_level = 1.0f - static_cast<float>(update) / num_updates;
    std::vector<cpprl::UpdateDatum> log;
    if (a2c.update(storage, decay_level, log)) ++weight_updates;

    if (update % 100 == 0) {
      auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::high_resolution_clock::now() - start_time);
      std::cout << "Update " << update << " (" << weight_updates << " steps), " << elapsed.count() << "s";
      for (auto& d : log) std::cout << " | " << d.name << ": " << d.value;
      std::cout << std::endl;
    }
  }
}

// PPO update of cpprl, with the mini-batches of an epoch grouped into optimizer
// steps of grad_accum_steps mini-batches each (for policies too large to take the
// whole mini-batch in one forward pass).
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

class PPO {
 private:
  Policy& policy;
  float actor_loss_coef, value_loss_coef, entropy_coef, max_grad_norm, original_learning_rate,
      original_clip_param, kl_target;
  int num_epoch, num_mini_batch, grad_accum_steps;
  std::unique_ptr<torch::optim::Adam> optimizer;

 public:
  PPO(Policy& policy, float clip_param, int num_epoch, int num_mini_batch, float actor_loss_coef,
      float value_loss_coef, float entropy_coef, float learning_rate, float epsilon = 1e-8,
      float max_grad_norm = 0.5, float kl_target = 0.01, int grad_accum_steps = 1)
      : policy(policy),
        actor_loss_coef(actor_loss_coef),
        value_loss_coef(value_loss_coef),
        entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm),
        original_learning_rate(learning_rate),
        original_clip_param(clip_param),
        kl_target(kl_target),
        num_epoch(num_epoch),
        num_mini_batch(num_mini_batch),
        grad_accum_steps(grad_accum_steps),
        optimizer(std::make_unique<torch::optim::Adam>(policy->parameters(),
                                                       torch::optim::AdamOptions(learning_rate).eps(epsilon))) {}

  void apply_gradients() {
    torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);
    optimizer->step();
  }

  std::vector<UpdateDatum> update(RolloutStorage& rollouts, float decay_level = 1) {
    // Decay lr and clip parameter together with training progress
    float clip_param = original_clip_param * decay_level;
    for (auto& group : optimizer->param_groups()) {
      group.options().set_lr(original_learning_rate * decay_level);
    }

    auto returns = rollouts.get_returns();
    auto value_preds = rollouts.get_value_predictions();
    auto advantages = (returns.narrow(0, 0, returns.size(0) - 1) - value_preds.narrow(0, 0, value_preds.size(0) - 1));
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-5);

    float total_value_loss = 0;
    float total_action_loss = 0;
    float total_entropy = 0;
    float kl_divergence = 0;
    float kl_early_stopped = -1;
    float clip_fraction = 0;
    int num_updates = 0;

    for (int epoch = 0; epoch < num_epoch; ++epoch) {
      std::unique_ptr<Generator> data_generator;
      if (policy->is_recurrent()) {
        data_generator = rollouts.recurrent_generator(advantages, num_mini_batch);
      } else {
        data_generator = rollouts.feed_forward_generator(advantages, num_mini_batch);
      }

      int pending = 0;
      while (!data_generator->done()) {
        MiniBatch mini_batch = data_generator->next();
        if (pending == 0) {
          optimizer->zero_grad();
        }

        auto evaluate_result = policy->evaluate_actions(mini_batch.observations, mini_batch.hidden_states,
                                                        mini_batch.masks, mini_batch.actions);

        kl_divergence = (mini_batch.action_log_probs - evaluate_result[1]).mean().item().toFloat();
        if (kl_divergence > kl_target * 1.5) {
          // Abandon the open window: the next update() starts a fresh one.
          kl_early_stopped = num_updates;
          goto finish_update;
        }

        {
          auto ratio = torch::exp(evaluate_result[1] - mini_batch.action_log_probs);
          auto surr_1 = ratio * mini_batch.advantages;
          auto surr_2 = torch::clamp(ratio, 1.0 - clip_param, 1.0 + clip_param) * mini_batch.advantages;
          clip_fraction += (ratio - 1.0).abs().gt(clip_param).to(torch::kFloat).mean().item().toFloat();
          auto action_loss = -torch::min(surr_1, surr_2).mean();
          auto value_loss = 0.5 * (mini_batch.returns - evaluate_result[0]).pow(2).mean();

          auto loss = (value_loss * value_loss_coef + action_loss * actor_loss_coef - evaluate_result[2] * entropy_coef);

          (loss / grad_accum_steps).backward();
          if (++pending == grad_accum_steps) {
            apply_gradients();
            pending = 0;
            num_updates++;
          }

          total_value_loss += value_loss.item().toFloat();
          total_action_loss += action_loss.item().toFloat();
          total_entropy += evaluate_result[2].item().toFloat();
        }
      }
      if (pending > 0) {
        // Uneven split of the epoch: step on what the last window holds.
        apply_gradients();
        pending = 0;
        num_updates++;
      }
    }

  finish_update:
    if (policy->using_observation_normalizer()) {
      policy->update_observation_normalizer(rollouts.get_observations());
    }

    const float denom = std::max(num_updates, 1);
    total_value_loss /= denom;
    total_action_loss /= denom;
    total_entropy /= denom;
    clip_fraction /= denom;

    if (kl_early_stopped > -1) {
      return {{"Value loss", total_value_loss},
              {"Action loss", total_action_loss},
              {"Clip fraction", clip_fraction},
              {"Entropy", total_entropy},
              {"KL divergence", kl_divergence},
              {"KL divergence early stop update", kl_early_stopped}};
    }
    return {{"Value loss", total_value_loss},
            {"Action loss", total_action_loss},
            {"Clip fraction", clip_fraction},
            {"Entropy", total_entropy},
            {"KL divergence", kl_divergence}};
  }
};

}  // namespace cpprl

int main() {
  cpprl::Policy policy(8, 4);
  cpprl::RolloutStorage storage(128, 8, 8);
  cpprl::PPO ppo(policy, 0.2f, 4, 16, 1.0f, 0.5f, 0.01f, 3e-4f, 1e-8f, 0.5f, 0.01f, 4);
  for (int update = 0; update < 10; ++update) {
    auto data = ppo.update(storage, 1.0f - update / 10.0f);
    (void)data;
  }
}

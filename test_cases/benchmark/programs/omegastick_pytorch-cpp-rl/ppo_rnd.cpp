// cpprl PPO with a Random Network Distillation bonus: a fixed random target network
// and a trained predictor network. The predictor has its own optimizer and decay
// schedule and updates on every mini-batch; the policy accumulates
// `policy_accum_steps` mini-batches per step and decays its rate per policy step.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

struct RNDImpl : torch::nn::Module {
  RNDImpl(int64_t obs_size, int64_t feature_size) {
    target = register_module("target", torch::nn::Sequential(torch::nn::Linear(obs_size, 128), torch::nn::ReLU(),
                                                             torch::nn::Linear(128, feature_size)));
    predictor = register_module("predictor", torch::nn::Sequential(torch::nn::Linear(obs_size, 128), torch::nn::ReLU(),
                                                                   torch::nn::Linear(128, feature_size)));
    for (auto& p : target->parameters()) p.requires_grad_(false);
  }
  torch::Tensor error(const torch::Tensor& obs) {
    return (predictor->forward(obs) - target->forward(obs)).pow(2).mean(-1);
  }
  torch::nn::Sequential target{nullptr}, predictor{nullptr};
};
TORCH_MODULE(RND);

class PPO_RND {
 public:
  PPO_RND(Policy& policy, RND& rnd, float clip_param, int num_epoch, int num_mini_batch, float value_loss_coef,
          float entropy_coef, float lr, float rnd_lr, float max_grad_norm, int policy_accum_steps)
      : policy(policy), rnd(rnd), clip_param(clip_param), value_loss_coef(value_loss_coef), entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm), num_epoch(num_epoch), num_mini_batch(num_mini_batch),
        policy_accum_steps(policy_accum_steps),
        optimizer(policy->parameters(), torch::optim::AdamOptions(lr).eps(1e-5)),
        rnd_optimizer(rnd->predictor->parameters(), torch::optim::AdamOptions(rnd_lr)),
        policy_scheduler(optimizer, 500, 0.5),
        rnd_scheduler(rnd_optimizer, 2000, 0.5) {}

  std::vector<UpdateDatum> update(RolloutStorage& rollouts) {
    auto returns = rollouts.get_returns();
    auto value_preds = rollouts.get_value_predictions();
    auto advantages = returns.narrow(0, 0, returns.size(0) - 1) - value_preds.narrow(0, 0, value_preds.size(0) - 1);
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-5);

    float total_loss = 0, total_rnd = 0;
    int mini_batches = 0;
    for (int epoch = 0; epoch < num_epoch; ++epoch) {
      auto generator = rollouts.feed_forward_generator(advantages, num_mini_batch);
      while (!generator->done()) {
        MiniBatch mb = generator->next();

        // Predictor: one full step per mini-batch
        rnd_optimizer.zero_grad();
        auto rnd_loss = rnd->error(mb.observations).mean();
        rnd_loss.backward();
        rnd_optimizer.step();
        rnd_scheduler.step();

        // Policy: part of a policy_accum_steps window
        auto result = policy->evaluate_actions(mb.observations, mb.hidden_states, mb.masks, mb.actions);
        auto ratio = torch::exp(result[1] - mb.action_log_probs);
        auto action_loss =
            -torch::min(ratio * mb.advantages, torch::clamp(ratio, 1.0 - clip_param, 1.0 + clip_param) * mb.advantages)
                 .mean();
        auto value_loss = 0.5 * (mb.returns - result[0]).pow(2).mean();
        auto loss = value_loss * value_loss_coef + action_loss - result[2] * entropy_coef;
        (loss / policy_accum_steps).backward();

        if (++mini_batches % policy_accum_steps == 0) {
          torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);
          optimizer.step();
          policy_scheduler.step();
          optimizer.zero_grad();
        }
        total_loss += loss.item<float>();
        total_rnd += rnd_loss.item<float>();
      }
    }
    const float n = static_cast<float>(std::max(mini_batches, 1));
    return {{"Loss", total_loss / n}, {"RND loss", total_rnd / n}};
  }

 private:
  Policy& policy;
  RND& rnd;
  float clip_param, value_loss_coef, entropy_coef, max_grad_norm;
  int num_epoch, num_mini_batch, policy_accum_steps;
  torch::optim::Adam optimizer;
  torch::optim::Adam rnd_optimizer;
  torch::optim::StepLR policy_scheduler;
  torch::optim::StepLR rnd_scheduler;
};

}  // namespace cpprl

int main() {
  cpprl::Policy policy(16, 6);
  cpprl::RND rnd(16, 64);
  cpprl::RolloutStorage storage(128, 32, 16);
  // 4 epochs x 8 mini-batches per update, 4 mini-batches per policy step
  cpprl::PPO_RND ppo(policy, rnd, 0.1f, 4, 8, 0.5f, 0.001f, 1e-4f, 1e-4f, 0.5f, 4);
  for (int update = 0; update < 5000; ++update) ppo.update(storage);
}

// Multi-worker PPO learner built on cpprl's PPO update: every worker collects its
// own rollouts, the workers average their gradients over Gloo, and each optimizer
// step covers grad_accum_steps mini-batches.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

class DistributedPPO {
 private:
  Policy& policy;
  c10::intrusive_ptr<c10d::ProcessGroup> process_group;
  float value_loss_coef, entropy_coef, max_grad_norm, original_learning_rate, original_clip_param;
  int num_epoch, num_mini_batch, grad_accum_steps;
  std::unique_ptr<torch::optim::Adam> optimizer;

  void average_gradients() {
    const int world_size = process_group->getSize();
    for (auto& param : policy->parameters()) {
      if (!param.grad().defined()) continue;
      std::vector<torch::Tensor> bucket{param.grad()};
      process_group->allreduce(bucket)->wait();
      param.mutable_grad().div_(world_size);
    }
  }

 public:
  DistributedPPO(Policy& policy, c10::intrusive_ptr<c10d::ProcessGroup> pg, float clip_param, int num_epoch,
                 int num_mini_batch, float value_loss_coef, float entropy_coef, float learning_rate,
                 float epsilon, float max_grad_norm, int grad_accum_steps)
      : policy(policy),
        process_group(std::move(pg)),
        value_loss_coef(value_loss_coef),
        entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm),
        original_learning_rate(learning_rate),
        original_clip_param(clip_param),
        num_epoch(num_epoch),
        num_mini_batch(num_mini_batch),
        grad_accum_steps(grad_accum_steps),
        optimizer(std::make_unique<torch::optim::Adam>(policy->parameters(),
                                                       torch::optim::AdamOptions(learning_rate).eps(epsilon))) {}

  std::vector<UpdateDatum> update(RolloutStorage& rollouts, float decay_level = 1) {
    float clip_param = original_clip_param * decay_level;
    for (auto& group : optimizer->param_groups()) {
      group.options().set_lr(original_learning_rate * decay_level);
    }

    auto returns = rollouts.get_returns();
    auto value_preds = rollouts.get_value_predictions();
    auto advantages = returns.narrow(0, 0, returns.size(0) - 1) - value_preds.narrow(0, 0, value_preds.size(0) - 1);
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-5);

    float total_value_loss = 0, total_action_loss = 0, total_entropy = 0;
    int num_updates = 0, mini_batch_index = 0;

    optimizer->zero_grad();
    for (int epoch = 0; epoch < num_epoch; ++epoch) {
      auto data_generator = rollouts.feed_forward_generator(advantages, num_mini_batch);
      while (!data_generator->done()) {
        MiniBatch mini_batch = data_generator->next();
        auto evaluate_result = policy->evaluate_actions(mini_batch.observations, mini_batch.hidden_states,
                                                        mini_batch.masks, mini_batch.actions);

        auto ratio = torch::exp(evaluate_result[1] - mini_batch.action_log_probs);
        auto surr_1 = ratio * mini_batch.advantages;
        auto surr_2 = torch::clamp(ratio, 1.0 - clip_param, 1.0 + clip_param) * mini_batch.advantages;
        auto action_loss = -torch::min(surr_1, surr_2).mean();
        auto value_loss = 0.5 * (mini_batch.returns - evaluate_result[0]).pow(2).mean();
        auto loss = value_loss * value_loss_coef + action_loss - evaluate_result[2] * entropy_coef;

        (loss / grad_accum_steps).backward();
        average_gradients();

        if (++mini_batch_index % grad_accum_steps == 0) {
          torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);
          optimizer->step();
          optimizer->zero_grad();
          num_updates++;
        }

        total_value_loss += value_loss.item().toFloat();
        total_action_loss += action_loss.item().toFloat();
        total_entropy += evaluate_result[2].item().toFloat();
      }
    }

    const float seen = static_cast<float>(std::max(mini_batch_index, 1));
    return {{"Value loss", total_value_loss / seen},
            {"Action loss", total_action_loss / seen},
            {"Entropy", total_entropy / seen},
            {"Updates", static_cast<float>(num_updates)}};
  }
};

}  // namespace cpprl

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world_size = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/cpprl_ppo_store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);

  torch::manual_seed(1);  // same initial policy on every worker
  cpprl::Policy policy(8, 4);
  cpprl::RolloutStorage storage(128, 8, 8);
  // 4 epochs x 8 mini-batches = 32 mini-batches per update, 4 per step.
  cpprl::DistributedPPO ppo(policy, pg, 0.2f, 4, 8, 0.5f, 0.01f, 2.5e-4f, 1e-5f, 0.5f, 4);
  for (int update = 0; update < 100; ++update) {
    auto info = ppo.update(storage, 1.0f - update / 100.0f);
    if (rank == 0 && update % 10 == 0) {
      std::cout << "update " << update << " " << info[0].name << " " << info[0].value << std::endl;
    }
  }
}

// fastrl PPO::train with the mini-batches of an SGD pass grouped into
// windows of grad_accum_batches; gradient post-processing lives in
// PPO::prepare_gradients.
#include <c10d/ProcessGroup.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <vector>

#include "fastrl_policy.h"
#include "tensorboard_logger.h"

namespace fastrl {

inline void average_gradients(std::vector<torch::Tensor>& params, c10d::ProcessGroup* pg) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (auto& param : params) {
    std::vector<torch::Tensor> tmp = {param.grad().data()};
    works.push_back(pg->allreduce(tmp));
  }
  for (auto& work : works) {
    work->wait();
  }
  for (auto& param : params) {
    param.grad().div_(pg->getSize());
  }
}

struct PPOOptions {
  int num_sgd_iters = 10;
  int grad_accum_batches = 4;
  float learning_rate = 3e-4f;
  float clip_range = 0.2f;
  float kl_coeff = 0.2f;
  float vf_coeff = 0.5f;
  float ent_coeff = 0.0f;
  bool clip_grad_norm_enabled = true;
  float clip_grad_norm = 0.5f;
  torch::Device device = torch::kCPU;
};

class PPO {
 public:
  PPO(PPOOptions options, std::shared_ptr<Policy> policy,
      std::shared_ptr<TensorBoardLogger> logger, c10d::ProcessGroup* process_group)
      : opt(options), policy(std::move(policy)), logger(std::move(logger)),
        process_group(process_group) {
    optimizer = std::make_shared<torch::optim::Adam>(
        this->policy->parameters(), torch::optim::AdamOptions(opt.learning_rate));
    cur_kl_coeff = opt.kl_coeff;
  }

  // Bound the update, then make the gradients identical on all ranks.
  void prepare_gradients(std::vector<torch::Tensor>& params) {
    if (opt.clip_grad_norm_enabled) {
      torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
    }
    if (process_group) {
      fastrl::average_gradients(params, process_group);
    }
  }

  torch::Tensor compute_loss(const RolloutBufferBatch& batch) {
    auto observations = batch.observations.to(opt.device);
    auto actions = batch.actions.to(opt.device);
    auto old_log_prob = batch.old_log_prob.to(opt.device);
    auto advantages = batch.advantages.to(opt.device);
    auto returns = batch.returns.to(opt.device);
    auto old_action_dist = batch.actions_dist;
    old_action_dist->to_(opt.device);

    auto [action_dist, values] = policy->forward(observations);
    values = values.flatten();
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8f);
    auto ratio = torch::exp(action_dist->log_prob(actions) - old_log_prob);
    auto policy_loss = -torch::min(
        advantages * ratio,
        advantages * torch::clamp(ratio, 1.f - opt.clip_range, 1.f + opt.clip_range)).mean();
    auto action_loss = kl_divergence(*old_action_dist, *action_dist).mean();
    auto value_loss = torch::mean(torch::square(values - returns));
    auto entropy_loss = -torch::mean(action_dist->entropy());
    value_losses.push_back(value_loss.item<float>());
    return policy_loss + cur_kl_coeff * action_loss + opt.vf_coeff * value_loss +
           opt.ent_coeff * entropy_loss;
  }

  void train(const RolloutBufferBatch* batches, int num_batches) {
    auto params = policy->parameters();
    float loss_value = 0.f;
    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      for (int start = 0; start < num_batches; start += opt.grad_accum_batches) {
        const int end = std::min(start + opt.grad_accum_batches, num_batches);
        const float window = static_cast<float>(end - start);

        optimizer->zero_grad();
        for (int batch_idx = start; batch_idx < end; batch_idx++) {
          auto loss = compute_loss(batches[batch_idx]);
          loss_value = loss.item<float>();
          (loss / window).backward();
        }

        prepare_gradients(params);
        optimizer->step();
      }
    }

    if (logger) {
      logger->add_scalar("train/value_loss", iter,
                         std::accumulate(value_losses.begin(), value_losses.end(), 0.f) /
                             value_losses.size());
      logger->add_scalar("train/loss", iter, loss_value);
    }
    value_losses.clear();
    iter++;
  }

  PPOOptions opt;
  std::shared_ptr<Policy> policy;
  std::shared_ptr<torch::optim::Optimizer> optimizer;
  std::shared_ptr<TensorBoardLogger> logger;
  c10d::ProcessGroup* process_group = nullptr;
  std::vector<float> value_losses;
  float cur_kl_coeff = 0.f;
  int iter = 0;
};

}  // namespace fastrl

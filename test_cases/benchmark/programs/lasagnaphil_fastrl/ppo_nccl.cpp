// fastrl PPO::train (src/fastrl.cpp) for GPU ranks (FASTRL_NCCL); the gradient
// average and the update were moved behind an accumulation guard so that
// several mini-batches form one step.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

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
    try {
      work->wait();
    } catch (const std::exception& ex) {
      std::cerr << "Exception received: " << ex.what() << std::endl;
      std::exit(EXIT_FAILURE);
    }
  }
  for (auto& param : params) {
    param.grad().div_(pg->getSize());
  }
}

struct PPOOptions {
  int num_sgd_iters = 10;
  int accum_minibatches = 4;
  float learning_rate = 3e-4f;
  float clip_range = 0.2f;
  float kl_coeff = 0.0f;
  float vf_coeff = 0.5f;
  float ent_coeff = 0.0f;
  bool clip_grad_norm_enabled = true;
  float clip_grad_norm = 0.5f;
  bool target_kl_enabled = true;
  float target_kl = 0.01f;
  torch::Device device = torch::kCUDA;
};

inline float get_mean(const std::vector<float>& vec) {
  return std::accumulate(vec.begin(), vec.end(), 0.f) / vec.size();
}

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

  void train(const RolloutBufferBatch* batches, int num_batches) {
    std::vector<float> pg_losses, value_losses, action_kl_losses;

    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      std::vector<float> action_kl_loss;

      for (int batch_idx = 0; batch_idx < num_batches; batch_idx++) {
        const RolloutBufferBatch& batch = batches[batch_idx];
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
        pg_losses.push_back(policy_loss.item<float>());
        auto action_loss = kl_divergence(*old_action_dist, *action_dist).mean();
        action_kl_loss.push_back(action_loss.item<float>());
        auto value_loss = torch::mean(torch::square(values - returns));
        value_losses.push_back(value_loss.item<float>());
        auto entropy_loss = -torch::mean(action_dist->entropy());

        auto loss = policy_loss + cur_kl_coeff * action_loss + opt.vf_coeff * value_loss +
                    opt.ent_coeff * entropy_loss;
        (loss / static_cast<float>(opt.accum_minibatches)).backward();

        auto params = policy->parameters();
        if (opt.clip_grad_norm_enabled) {
          torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
        }

        if (++accumulated == opt.accum_minibatches) {
          if (process_group) {
            fastrl::average_gradients(params, process_group);
          }
          optimizer->step();
          optimizer->zero_grad();
          accumulated = 0;
        }
      }

      float kl_this_iter = get_mean(action_kl_loss);
      action_kl_losses.push_back(kl_this_iter);
      if (opt.target_kl_enabled) {
        if (kl_this_iter > 2.0f * opt.target_kl) cur_kl_coeff *= 1.5f;
        else if (kl_this_iter < 0.5f * opt.target_kl) cur_kl_coeff *= 0.5f;
      }
    }

    if (logger) {
      logger->add_scalar("train/policy_gradient_loss", iter, get_mean(pg_losses));
      logger->add_scalar("train/value_loss", iter, get_mean(value_losses));
      logger->add_scalar("train/action_kl_loss", iter, get_mean(action_kl_losses));
      logger->add_scalar("train/cur_kl_coeff", iter, cur_kl_coeff);
    }
    iter++;
  }

  PPOOptions opt;
  std::shared_ptr<Policy> policy;
  std::shared_ptr<torch::optim::Optimizer> optimizer;
  std::shared_ptr<TensorBoardLogger> logger;
  c10d::ProcessGroup* process_group = nullptr;
  float cur_kl_coeff = 0.f;
  // Mini-batches accumulated since the last step; carries over between train() calls.
  int accumulated = 0;
  int iter = 0;
};

}  // namespace fastrl

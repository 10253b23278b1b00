// fastrl PPO (src/fastrl.cpp) with the mini-batch update split out of
// PPO::train into PPO::update_minibatch, and several mini-batches per step.
#include <c10d/ProcessGroup.hpp>
#include <c10d/ProcessGroupGloo.hpp>
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
  int minibatches_per_update = 8;
  float learning_rate = 3e-4f;
  float clip_range = 0.2f;
  float vf_coeff = 0.5f;
  float ent_coeff = 0.01f;
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
    minibatches_left = opt.minibatches_per_update;
  }

  // One PPO mini-batch: backward, gradient averaging, and an optimizer step
  // once minibatches_per_update mini-batches have been accumulated.
  float update_minibatch(const RolloutBufferBatch& batch) {
    auto observations = batch.observations.to(opt.device);
    auto actions = batch.actions.to(opt.device);
    auto old_log_prob = batch.old_log_prob.to(opt.device);
    auto advantages = batch.advantages.to(opt.device);
    auto returns = batch.returns.to(opt.device);

    auto [action_dist, values] = policy->forward(observations);
    values = values.flatten();
    auto log_prob = action_dist->log_prob(actions);
    auto entropy = action_dist->entropy();

    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8f);
    auto ratio = torch::exp(log_prob - old_log_prob);
    auto policy_loss = -torch::min(
        advantages * ratio,
        advantages * torch::clamp(ratio, 1.f - opt.clip_range, 1.f + opt.clip_range)).mean();
    auto value_loss = torch::mean(torch::square(values - returns));
    auto entropy_loss = -torch::mean(entropy);
    auto loss = policy_loss + opt.vf_coeff * value_loss + opt.ent_coeff * entropy_loss;

    auto scaled = loss / static_cast<float>(opt.minibatches_per_update);
    scaled.backward();

    auto params = policy->parameters();
    if (process_group) {
      fastrl::average_gradients(params, process_group);
    }

    if (--minibatches_left == 0) {
      if (opt.clip_grad_norm_enabled) {
        torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
      }
      optimizer->step();
      optimizer->zero_grad();
      minibatches_left = opt.minibatches_per_update;
    }
    return loss.item<float>();
  }

  void train(const RolloutBufferBatch* batches, int num_batches) {
    std::vector<float> losses;
    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      for (int batch_idx = 0; batch_idx < num_batches; batch_idx++) {
        losses.push_back(update_minibatch(batches[batch_idx]));
      }
    }
    if (logger) {
      logger->add_scalar("train/loss", iter,
                         std::accumulate(losses.begin(), losses.end(), 0.f) / losses.size());
    }
    iter++;
  }

  PPOOptions opt;
  std::shared_ptr<Policy> policy;
  std::shared_ptr<torch::optim::Optimizer> optimizer;
  std::shared_ptr<TensorBoardLogger> logger;
  c10d::ProcessGroup* process_group = nullptr;
  int minibatches_left = 0;
  int iter = 0;
};

}  // namespace fastrl

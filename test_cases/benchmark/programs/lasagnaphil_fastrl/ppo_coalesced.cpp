// fastrl PPO::train (src/fastrl.cpp) with the gradient averaging of dist_utils.h
// done as one coalesced collective, and a window-start gradient reset.
#include <c10d/ProcessGroup.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <numeric>
#include <vector>

#include "fastrl_policy.h"
#include "tensorboard_logger.h"

namespace fastrl {

// One allreduce_coalesced for all gradients, then division by the group size.
inline void average_gradients_coalesced(std::vector<torch::Tensor>& params, c10d::ProcessGroup* pg) {
  std::vector<torch::Tensor> grads;
  for (auto& param : params) grads.push_back(param.grad());
  try {
    pg->allreduce_coalesced(grads)->wait();
  } catch (const std::exception& ex) {
    std::cerr << "Exception received: " << ex.what() << std::endl;
    std::exit(EXIT_FAILURE);
  }
  const double inv = 1.0 / pg->getSize();
  for (auto& g : grads) g.mul_(inv);
}

struct PPOOptions {
  int num_sgd_iters = 10;
  int accum = 4;
  float learning_rate = 3e-4f;
  float clip_range = 0.2f;
  float vf_coeff = 0.5f;
  float ent_coeff = 0.0f;
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
  }

  // num_batches is a multiple of opt.accum (checked by the caller's buffer sizing).
  void train(const RolloutBufferBatch* batches, int num_batches) {
    TORCH_CHECK(num_batches % opt.accum == 0, "mini-batches per pass must fill whole windows");
    std::vector<float> losses;
    auto params = policy->parameters();

    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      for (int batch_idx = 0; batch_idx < num_batches; batch_idx++) {
        if (batch_idx % opt.accum == 0) {
          optimizer->zero_grad();
        }
        const RolloutBufferBatch& batch = batches[batch_idx];
        auto observations = batch.observations.to(opt.device);
        auto actions = batch.actions.to(opt.device);
        auto old_log_prob = batch.old_log_prob.to(opt.device);
        auto advantages = batch.advantages.to(opt.device);
        auto returns = batch.returns.to(opt.device);

        auto [action_dist, values] = policy->forward(observations);
        values = values.flatten();
        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8f);
        auto ratio = torch::exp(action_dist->log_prob(actions) - old_log_prob);
        auto policy_loss = -torch::min(
            advantages * ratio,
            advantages * torch::clamp(ratio, 1.f - opt.clip_range, 1.f + opt.clip_range)).mean();
        auto value_loss = torch::mean(torch::square(values - returns));
        auto entropy_loss = -torch::mean(action_dist->entropy());
        auto loss = policy_loss + opt.vf_coeff * value_loss + opt.ent_coeff * entropy_loss;
        losses.push_back(loss.item<float>());
        (loss * (1.0f / opt.accum)).backward();

        if (batch_idx % opt.accum == opt.accum - 1) {
          if (process_group) average_gradients_coalesced(params, process_group);
          torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
          optimizer->step();
        }
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
  int iter = 0;
};

}  // namespace fastrl

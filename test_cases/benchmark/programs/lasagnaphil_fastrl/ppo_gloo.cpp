// fastrl PPO::train (src/fastrl.cpp) on a Gloo group (FASTRL_GLOO): mini-batch
// gradients are summed locally and the update is applied by a small lambda.
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
  int num_sgd_iters = 4;
  int minibatches_per_step = 4;
  float learning_rate = 2.5e-4f;
  float clip_range = 0.1f;
  float vf_coeff = 1.0f;
  float ent_coeff = 0.01f;
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
        this->policy->parameters(), torch::optim::AdamOptions(opt.learning_rate).eps(1e-5));
  }

  void train(const RolloutBufferBatch* batches, int num_batches) {
    std::vector<float> losses;
    auto params = policy->parameters();
    int pending = 0;

    // Mean over the pending mini-batches, then over the ranks, then update.
    auto apply_update = [&]() {
      for (auto& p : params) {
        if (p.grad().defined()) p.grad().div_(pending);
      }
      if (process_group) fastrl::average_gradients(params, process_group);
      torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
      optimizer->step();
      optimizer->zero_grad();
      pending = 0;
    };

    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      for (int batch_idx = 0; batch_idx < num_batches; batch_idx++) {
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

        loss.backward();
        pending++;
        if (pending == opt.minibatches_per_step) {
          apply_update();
        }
      }
      if (pending > 0) {
        apply_update();
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

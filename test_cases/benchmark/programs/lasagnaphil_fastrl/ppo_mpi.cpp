// fastrl PPO::train built with FASTRL_MPI semantics but on a generic c10d group;
// a larger effective mini-batch is obtained by stepping every few mini-batches.
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
  int accumulate_minibatches = 2;
  float learning_rate = 3e-4f;
  float clip_range = 0.2f;
  bool clip_range_vf_enabled = true;
  float clip_range_vf = 0.2f;
  float vf_coeff = 0.5f;
  float ent_coeff = 0.0f;
  bool clip_grad_norm_enabled = true;
  float clip_grad_norm = 0.5f;
  torch::Device device = torch::kCPU;
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
  }

  void train(const RolloutBufferBatch* batches, int num_batches) {
    std::vector<float> pg_losses, value_losses;
    const int accum = opt.accumulate_minibatches;

    for (int sgd_iters = 0; sgd_iters < opt.num_sgd_iters; sgd_iters++) {
      for (int batch_idx = 0; batch_idx < num_batches; batch_idx++) {
        const RolloutBufferBatch& batch = batches[batch_idx];
        auto observations = batch.observations.to(opt.device);
        auto actions = batch.actions.to(opt.device);
        auto old_values = batch.old_values.to(opt.device);
        auto old_log_prob = batch.old_log_prob.to(opt.device);
        auto advantages = batch.advantages.to(opt.device);
        auto returns = batch.returns.to(opt.device);

        auto [action_dist, values] = policy->forward(observations);
        values = values.flatten();
        auto log_prob = action_dist->log_prob(actions);

        advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8f);
        auto ratio = torch::exp(log_prob - old_log_prob);
        auto policy_loss = -torch::min(
            advantages * ratio,
            advantages * torch::clamp(ratio, 1.f - opt.clip_range, 1.f + opt.clip_range)).mean();
        pg_losses.push_back(policy_loss.item<float>());

        torch::Tensor value_loss;
        if (opt.clip_range_vf_enabled) {
          auto values_clipped =
              old_values + torch::clamp(values - old_values, -opt.clip_range_vf, opt.clip_range_vf);
          value_loss = torch::mean(torch::maximum(torch::square(values - returns),
                                                  torch::square(values_clipped - returns)));
        } else {
          value_loss = torch::mean(torch::square(values - returns));
        }
        value_losses.push_back(value_loss.item<float>());
        auto entropy_loss = -torch::mean(action_dist->entropy());

        auto loss = (policy_loss + opt.vf_coeff * value_loss + opt.ent_coeff * entropy_loss) /
                    static_cast<float>(accum);

        optimizer->zero_grad();
        loss.backward();

        if ((batch_idx + 1) % accum == 0 || batch_idx + 1 == num_batches) {
          auto params = policy->parameters();
          if (process_group) {
            fastrl::average_gradients(params, process_group);
          }
          if (opt.clip_grad_norm_enabled) {
            torch::nn::utils::clip_grad_norm_(params, opt.clip_grad_norm);
          }
          optimizer->step();
        }
      }
    }

    if (logger) {
      logger->add_scalar("train/policy_gradient_loss", iter, get_mean(pg_losses));
      logger->add_scalar("train/value_loss", iter, get_mean(value_losses));
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

// Stand-in for the parts of fastrl/fastrl.h that PPO::train uses: the action
// distributions, the actor-critic Policy and the rollout mini-batch.
#pragma once

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include <torch/torch.h>

namespace fastrl {

enum class DistributionType { DiagGaussian, Bernoulli };
enum class NNActivationType { ReLU, Tanh };
enum class DistributedBackend { None, MPI, Gloo, NCCL };

inline torch::Tensor sum_independent_dims(torch::Tensor t) {
  return t.sizes().size() > 1 ? t.sum({1}) : t.sum();
}

struct Distribution {
  virtual ~Distribution() = default;
  virtual torch::Tensor entropy() const = 0;
  virtual torch::Tensor log_prob(torch::Tensor value) const = 0;
  virtual void to_(torch::Device device) = 0;
};

struct DiagGaussianDistribution : Distribution {
  DiagGaussianDistribution(torch::Tensor m, torch::Tensor s)
      : mean(std::move(m)), logstd(std::move(s)) {}
  torch::Tensor entropy() const override {
    return sum_independent_dims(0.5f + 0.5f * std::log(2 * M_PI) + logstd);
  }
  torch::Tensor log_prob(torch::Tensor value) const override {
    auto lp = -(value - mean).pow(2) / (2 * logstd.exp().pow(2)) - logstd -
              std::log(std::sqrt(2 * M_PI));
    return sum_independent_dims(lp);
  }
  void to_(torch::Device device) override {
    mean = mean.to(device);
    logstd = logstd.to(device);
  }
  torch::Tensor mean, logstd;
};

inline torch::Tensor kl_divergence(const Distribution& d1, const Distribution& d2) {
  auto a = dynamic_cast<const DiagGaussianDistribution*>(&d1);
  auto b = dynamic_cast<const DiagGaussianDistribution*>(&d2);
  auto s1 = a->logstd.exp();
  auto s2 = b->logstd.exp();
  auto kl = b->logstd - a->logstd +
            0.5f * (s1.square() + (b->mean - a->mean).square()) / s2.square() - 0.5f;
  return sum_independent_dims(kl);
}

struct PolicyOptions {
  DistributionType action_dist_type = DistributionType::DiagGaussian;
  std::vector<int> actor_hidden_dim = {256, 256};
  std::vector<int> critic_hidden_dim = {256, 256};
  NNActivationType activation_type = NNActivationType::ReLU;
  float log_std_init = 0.0f;
  torch::Device device = torch::kCPU;
};

struct Policy : torch::nn::Module {
  Policy(int state_size, int action_size, const PolicyOptions& options)
      : opt(options) {
    actor = register_module(
        "actor_seq_nn",
        torch::nn::Sequential(torch::nn::Linear(state_size, opt.actor_hidden_dim[0]),
                              torch::nn::ReLU(),
                              torch::nn::Linear(opt.actor_hidden_dim[0], action_size)));
    critic = register_module(
        "critic_seq_nn",
        torch::nn::Sequential(torch::nn::Linear(state_size, opt.critic_hidden_dim[0]),
                              torch::nn::ReLU(),
                              torch::nn::Linear(opt.critic_hidden_dim[0], 1)));
    actor_log_std = register_parameter(
        "actor_log_std", torch::ones({action_size}) * opt.log_std_init);
  }

  std::pair<std::shared_ptr<Distribution>, torch::Tensor> forward(torch::Tensor state) {
    auto mu = actor->forward(state);
    auto value = critic->forward(state);
    return {std::make_shared<DiagGaussianDistribution>(mu, actor_log_std.expand_as(mu)),
            value};
  }

  PolicyOptions opt;
  torch::nn::Sequential actor{nullptr}, critic{nullptr};
  torch::Tensor actor_log_std;
};

struct RolloutBufferBatch {
  torch::Tensor observations, actions;
  std::shared_ptr<Distribution> actions_dist;
  torch::Tensor old_values, old_log_prob, advantages, returns;
};

}  // namespace fastrl

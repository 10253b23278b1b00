// Stand-in for the environments of the RL trainers: a vectorised toy environment
// with the observation / reward / done triple the originals consume.
#pragma once
#include <torch/torch.h>
#include <tuple>

namespace gym_lite {

class VecEnv {
 public:
  VecEnv(int64_t num_envs, int64_t obs_size, int64_t num_actions)
      : num_envs_(num_envs), obs_size_(obs_size), num_actions_(num_actions) {}

  torch::Tensor reset() { return torch::randn({num_envs_, obs_size_}); }

  // Returns next observation, reward, done.
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> step(const torch::Tensor& actions) {
    auto obs = torch::randn({num_envs_, obs_size_});
    auto reward = torch::ones({num_envs_}) - 0.01 * actions.to(torch::kFloat).reshape({num_envs_, -1}).sum(1);
    auto done = torch::rand({num_envs_}).lt(0.02).to(torch::kFloat);
    return {obs, reward, done};
  }

  int64_t num_envs() const { return num_envs_; }
  int64_t observation_size() const { return obs_size_; }
  int64_t action_count() const { return num_actions_; }

 private:
  int64_t num_envs_, obs_size_, num_actions_;
};

}  // namespace gym_lite

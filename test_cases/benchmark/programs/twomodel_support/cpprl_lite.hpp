// Stand-in for the cpprl library pieces the PPO and A2C updates use: the policy,
// the rollout storage and its mini-batch generator.
#pragma once
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

namespace cpprl {

struct UpdateDatum {
  std::string name;
  float value;
};

struct MiniBatch {
  torch::Tensor observations, hidden_states, actions, value_predictions, returns, masks,
      action_log_probs, advantages;
};

class Generator {
 public:
  virtual ~Generator() = default;
  virtual bool done() const = 0;
  virtual MiniBatch next() = 0;
};

class FeedForwardGenerator : public Generator {
 public:
  FeedForwardGenerator(int mini_batch_size, MiniBatch all)
      : mini_batch_size(mini_batch_size), all(std::move(all)),
        indices(torch::randperm(this->all.observations.size(0), torch::kLong)) {}
  bool done() const override { return index >= indices.size(0); }
  MiniBatch next() override {
    auto idx = indices.narrow(0, index, std::min<int64_t>(mini_batch_size, indices.size(0) - index));
    index += mini_batch_size;
    return {all.observations.index_select(0, idx), all.hidden_states.index_select(0, idx),
            all.actions.index_select(0, idx),      all.value_predictions.index_select(0, idx),
            all.returns.index_select(0, idx),      all.masks.index_select(0, idx),
            all.action_log_probs.index_select(0, idx), all.advantages.index_select(0, idx)};
  }

 private:
  int64_t mini_batch_size;
  MiniBatch all;
  torch::Tensor indices;
  int64_t index = 0;
};

class PolicyImpl : public torch::nn::Module {
 public:
  PolicyImpl(int64_t obs_size, int64_t num_actions, int64_t hidden = 64)
      : base(register_module("base", torch::nn::Sequential(torch::nn::Linear(obs_size, hidden), torch::nn::Tanh(),
                                                            torch::nn::Linear(hidden, hidden), torch::nn::Tanh()))),
        actor(register_module("actor", torch::nn::Linear(hidden, num_actions))),
        critic(register_module("critic", torch::nn::Linear(hidden, 1))),
        hidden_size(hidden) {}

  // {values, action_log_probs, entropy}
  std::vector<torch::Tensor> evaluate_actions(const torch::Tensor& obs, const torch::Tensor& /*hidden*/,
                                              const torch::Tensor& /*masks*/, const torch::Tensor& actions) {
    auto features = base->forward(obs);
    auto log_probs = torch::log_softmax(actor->forward(features), -1);
    auto action_log_probs = log_probs.gather(-1, actions.to(torch::kLong).view({-1, 1}));
    auto entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
    return {critic->forward(features), action_log_probs, entropy};
  }
  std::vector<torch::Tensor> act(const torch::Tensor& obs, const torch::Tensor& hidden, const torch::Tensor& masks) {
    auto features = base->forward(obs);
    auto probs = torch::softmax(actor->forward(features), -1);
    auto actions = probs.multinomial(1);
    return {critic->forward(features), actions, probs.log().gather(-1, actions), hidden};
  }
  bool is_recurrent() const { return false; }
  bool using_observation_normalizer() const { return false; }
  void update_observation_normalizer(const torch::Tensor&) {}
  int64_t get_hidden_size() const { return hidden_size; }

 private:
  torch::nn::Sequential base;
  torch::nn::Linear actor, critic;
  int64_t hidden_size;
};
TORCH_MODULE(Policy);

class RolloutStorage {
 public:
  RolloutStorage(int64_t num_steps, int64_t num_processes, int64_t obs_size)
      : observations(torch::zeros({num_steps + 1, num_processes, obs_size})),
        hidden_states(torch::zeros({num_steps + 1, num_processes, 1})),
        rewards(torch::zeros({num_steps, num_processes, 1})),
        value_predictions(torch::zeros({num_steps + 1, num_processes, 1})),
        returns(torch::zeros({num_steps + 1, num_processes, 1})),
        action_log_probs(torch::zeros({num_steps, num_processes, 1})),
        actions(torch::zeros({num_steps, num_processes, 1}, torch::kLong)),
        masks(torch::ones({num_steps + 1, num_processes, 1})) {}

  std::unique_ptr<Generator> feed_forward_generator(torch::Tensor advantages, int num_mini_batch) {
    auto n = rewards.size(0) * rewards.size(1);
    MiniBatch all{observations.narrow(0, 0, rewards.size(0)).reshape({n, -1}),
                  hidden_states.narrow(0, 0, rewards.size(0)).reshape({n, -1}),
                  actions.reshape({n, -1}),
                  value_predictions.narrow(0, 0, rewards.size(0)).reshape({n, 1}),
                  returns.narrow(0, 0, rewards.size(0)).reshape({n, 1}),
                  masks.narrow(0, 0, rewards.size(0)).reshape({n, 1}),
                  action_log_probs.reshape({n, 1}),
                  advantages.reshape({n, 1})};
    return std::make_unique<FeedForwardGenerator>(static_cast<int>(n / num_mini_batch), all);
  }
  std::unique_ptr<Generator> recurrent_generator(torch::Tensor advantages, int num_mini_batch) {
    return feed_forward_generator(advantages, num_mini_batch);
  }

  const torch::Tensor& get_actions() const { return actions; }
  const torch::Tensor& get_action_log_probs() const { return action_log_probs; }
  const torch::Tensor& get_hidden_states() const { return hidden_states; }
  const torch::Tensor& get_masks() const { return masks; }
  const torch::Tensor& get_observations() const { return observations; }
  const torch::Tensor& get_returns() const { return returns; }
  const torch::Tensor& get_rewards() const { return rewards; }
  const torch::Tensor& get_value_predictions() const { return value_predictions; }

 private:
  torch::Tensor observations, hidden_states, rewards, value_predictions, returns, action_log_probs, actions, masks;
};

}  // namespace cpprl

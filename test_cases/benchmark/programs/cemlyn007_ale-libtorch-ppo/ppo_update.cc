// Learner side of the ALE PPO binary: takes the rollout batch, runs num_epochs
// passes of shuffled minibatches, and accumulates config.accumulation_steps
// minibatches per optimizer step.
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

struct Config {
  size_t total_environments = 16;
  size_t hidden_size = 256;
  size_t action_size = 4;
  size_t horizon = 96;
  size_t frame_stack = 4;
  double learning_rate = 2.5e-4;
  float clip_param = 0.1f;
  float value_loss_coef = 0.5f;
  float entropy_coef = 0.01f;
  long num_epochs = 3;
  long mini_batch_size = 256;
  long num_mini_batches = 6;
  long accumulation_steps = 4;
  float max_gradient_norm = 0.5f;
  size_t num_rollouts = 5000;
};

struct RolloutBatch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns;
};

struct AgentImpl : torch::nn::Module {
  AgentImpl(int64_t frame_stack, int64_t hidden, int64_t actions)
      : encoder(register_module("encoder", torch::nn::Sequential(
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(frame_stack, 16, 8).stride(4)),
                                               torch::nn::ReLU(),
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 4).stride(2)),
                                               torch::nn::ReLU(), torch::nn::Flatten(),
                                               torch::nn::Linear(2592, hidden), torch::nn::ReLU()))),
        logits_head(register_module("logits", torch::nn::Linear(hidden, actions))),
        value_head(register_module("value", torch::nn::Linear(hidden, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& obs) {
    auto h = encoder->forward(obs.to(torch::kFloat).div(255.0));
    return {torch::log_softmax(logits_head->forward(h), -1), value_head->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential encoder;
  torch::nn::Linear logits_head, value_head;
};
TORCH_MODULE(Agent);

struct LossTerms {
  torch::Tensor total, policy, value, entropy;
};

LossTerms ppo_loss(Agent& agent, const RolloutBatch& mb, const Config& config) {
  auto [log_probs, values] = agent->forward(mb.observations);
  auto new_log_prob = log_probs.gather(1, mb.actions.unsqueeze(1)).squeeze(1);
  auto ratio = (new_log_prob - mb.log_probabilities).exp();
  auto policy = -torch::min(ratio * mb.advantages,
                            ratio.clamp(1 - config.clip_param, 1 + config.clip_param) * mb.advantages)
                     .mean();
  auto value = (values - mb.returns).pow(2).mean();
  auto entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
  return {policy + config.value_loss_coef * value - config.entropy_coef * entropy, policy, value, entropy};
}

std::map<std::string, float> update(Agent& agent, torch::optim::Adam& optimizer, const RolloutBatch& batch,
                                    const Config& config) {
  agent->train();
  const int64_t size = batch.observations.size(0);
  std::vector<float> policy_losses, value_losses, entropies, grad_norms;

  for (long epoch = 0; epoch < config.num_epochs; ++epoch) {
    auto permutation = torch::randperm(size, torch::TensorOptions().dtype(torch::kLong));
    optimizer.zero_grad();
    for (long mini_batch_index = 0; mini_batch_index < config.num_mini_batches; ++mini_batch_index) {
      auto idx = permutation.narrow(0, mini_batch_index * config.mini_batch_size, config.mini_batch_size);
      RolloutBatch mb{batch.observations.index_select(0, idx), batch.actions.index_select(0, idx),
                      batch.log_probabilities.index_select(0, idx), batch.advantages.index_select(0, idx),
                      batch.returns.index_select(0, idx)};
      LossTerms terms = ppo_loss(agent, mb, config);
      (terms.total / static_cast<double>(config.accumulation_steps)).backward();
      policy_losses.push_back(terms.policy.item<float>());
      value_losses.push_back(terms.value.item<float>());
      entropies.push_back(terms.entropy.item<float>());

      if ((mini_batch_index + 1) % config.accumulation_steps == 0) {
        auto norm = torch::nn::utils::clip_grad_norm_(agent->parameters(), config.max_gradient_norm);
        grad_norms.push_back(static_cast<float>(norm));
        optimizer.step();
        optimizer.zero_grad();
      }
    }
  }

  auto mean = [](const std::vector<float>& v) {
    return v.empty() ? 0.f : std::accumulate(v.begin(), v.end(), 0.f) / v.size();
  };
  return {{"policy_loss", mean(policy_losses)},
          {"value_loss", mean(value_losses)},
          {"entropy", mean(entropies)},
          {"mean_clipped_gradient", mean(grad_norms)}};
}

int main() {
  Config config;
  torch::manual_seed(0);
  Agent agent(config.frame_stack, config.hidden_size, config.action_size);
  torch::optim::Adam optimizer(agent->parameters(), torch::optim::AdamOptions(config.learning_rate).eps(1e-5));
  const int64_t n = config.horizon * config.total_environments;
  for (size_t rollout_index = 0; rollout_index < config.num_rollouts; ++rollout_index) {
    const double frac = 1.0 - static_cast<double>(rollout_index) / config.num_rollouts;
    static_cast<torch::optim::AdamOptions&>(optimizer.param_groups()[0].options()).lr(config.learning_rate * frac);
    RolloutBatch batch{torch::randint(0, 256, {n, 4, 84, 84}).to(torch::kUInt8), torch::randint(0, 4, {n}),
                       torch::full({n}, -1.386f), torch::randn({n}), torch::randn({n})};
    auto logs = update(agent, optimizer, batch, config);
    if (rollout_index % 10 == 0) {
      std::cout << "rollout " << rollout_index;
      for (auto& [k, v] : logs) std::cout << " " << k << "=" << v;
      std::cout << std::endl;
    }
  }
}

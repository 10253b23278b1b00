// Stand-in for PPO-LibTorch's Agent (actor and critic MLPs) and its CircularBuffer
// episode statistics.
#pragma once
#include <torch/torch.h>

#include <cmath>
#include <deque>
#include <memory>
#include <numeric>
#include <vector>

struct AgentOutput {
  torch::Tensor action;
  torch::Tensor logprob;
  torch::Tensor entropy;
  torch::Tensor value;
};

class Agent : public torch::nn::Module {
 public:
  Agent(int64_t obsSize, int64_t actionSize, std::shared_ptr<torch::Device> device) : m_device(std::move(device)) {
    m_Critic = register_module("critic", torch::nn::Sequential(torch::nn::Linear(obsSize, 64), torch::nn::Tanh(),
                                                                torch::nn::Linear(64, 64), torch::nn::Tanh(),
                                                                torch::nn::Linear(64, 1)));
    m_Actor = register_module("actor", torch::nn::Sequential(torch::nn::Linear(obsSize, 64), torch::nn::Tanh(),
                                                              torch::nn::Linear(64, 64), torch::nn::Tanh(),
                                                              torch::nn::Linear(64, actionSize)));
  }
  torch::Tensor getValue(const torch::Tensor& x) { return m_Critic->forward(x); }
  AgentOutput getActionAndValueDiscrete(const torch::Tensor& x, torch::Tensor action = torch::Tensor()) {
    auto logits = m_Actor->forward(x);
    auto log_probs = torch::log_softmax(logits, -1);
    if (!action.defined()) action = log_probs.exp().multinomial(1).squeeze(-1);
    auto logprob = log_probs.gather(-1, action.unsqueeze(-1)).squeeze(-1);
    auto entropy = -(log_probs.exp() * log_probs).sum(-1);
    return {action, logprob, entropy, m_Critic->forward(x)};
  }
  AgentOutput getActionAndValueMultiDiscrete(const torch::Tensor& x, const std::vector<int64_t>& nvec,
                                             torch::Tensor action = torch::Tensor()) {
    auto logits = m_Actor->forward(x).split_with_sizes(c10::IntArrayRef(nvec), -1);
    std::vector<torch::Tensor> actions, logprobs, entropies;
    for (size_t i = 0; i < logits.size(); ++i) {
      auto lp = torch::log_softmax(logits[i], -1);
      auto a = action.defined() ? action.select(-1, static_cast<int64_t>(i)) : lp.exp().multinomial(1).squeeze(-1);
      actions.push_back(a);
      logprobs.push_back(lp.gather(-1, a.unsqueeze(-1)).squeeze(-1));
      entropies.push_back(-(lp.exp() * lp).sum(-1));
    }
    return {torch::stack(actions, -1), torch::stack(logprobs, 0).sum(0), torch::stack(entropies, 0).sum(0),
            m_Critic->forward(x)};
  }

  torch::nn::Sequential m_Critic{nullptr};
  torch::nn::Sequential m_Actor{nullptr};
  std::shared_ptr<torch::Device> m_device;
};

class CircularBuffer {
 public:
  explicit CircularBuffer(size_t capacity) : m_capacity(capacity) {}
  void add(float v) {
    if (m_values.size() == m_capacity) m_values.pop_front();
    m_values.push_back(v);
  }
  float mean() const {
    return m_values.empty() ? 0.f : std::accumulate(m_values.begin(), m_values.end(), 0.f) / m_values.size();
  }

 private:
  size_t m_capacity;
  std::deque<float> m_values;
};

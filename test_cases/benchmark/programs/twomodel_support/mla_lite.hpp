// Stand-ins for the MLA (TorchProject2) pieces its DQN agents use: replay buffer
// samples, the exploration policy interface, the prioritized sampler and the
// linear learning-rate schedule.
#pragma once
#include <torch/torch.h>

#include <vector>

struct RBSample {
  at::Tensor states, nStates, aActions, rewards, terminal;
};

class ReplayBuffer {
 public:
  ReplayBuffer(int64_t capacity, int64_t state_size, int64_t num_actions)
      : capacity(capacity), state_size(state_size), num_actions(num_actions) {}
  RBSample sample(int64_t batch_size) {
    return {torch::randn({batch_size, state_size}), torch::randn({batch_size, state_size}),
            torch::randint(0, num_actions, {batch_size}), torch::randn({batch_size}),
            (torch::rand({batch_size}) > 0.05).to(torch::kFloat)};
  }
  RBSample get_sample(const at::Tensor& indexes) { return sample(indexes.size(0)); }
  at::Tensor last_state() { return torch::randn({1, state_size}); }
  float get_acc_reward(int) { return 0.f; }
  int64_t update_steps = 0;

 private:
  int64_t capacity, state_size, num_actions;
};

class XPA {
 public:
  virtual ~XPA() = default;
  virtual void update() = 0;
  virtual at::Tensor nextAction(at::Tensor qvalue) = 0;
  virtual at::Tensor prob(at::Tensor qvalue) = 0;
};

class Boltzmann : public XPA {
 public:
  explicit Boltzmann(float temperature) : temperature(temperature) {}
  void update() override { temperature = std::max(0.05f, temperature * 0.999f); }
  at::Tensor nextAction(at::Tensor qvalue) override { return prob(qvalue).multinomial(1); }
  at::Tensor prob(at::Tensor qvalue) override { return torch::softmax(qvalue / temperature, -1); }

 private:
  float temperature;
};

class PESampler {
 public:
  explicit PESampler(int64_t capacity) : priorities(torch::ones({capacity})) {}
  at::Tensor sample(int64_t n) { return priorities.multinomial(n, true); }
  at::Tensor get_weights(const at::Tensor& idx) {
    auto p = priorities.index_select(0, idx) / priorities.sum();
    auto w = (p * priorities.size(0)).pow(-0.4);
    return w / w.max();
  }
  void update(const at::Tensor& idx, const at::Tensor& err) {
    priorities.index_put_({idx}, err.abs().to(torch::kFloat) + 1e-3);
  }

 private:
  at::Tensor priorities;
};

class LinearLRS : public torch::optim::LRScheduler {
 public:
  LinearLRS(torch::optim::Optimizer& optimizer, unsigned step_size, double start_factor, double end_factor,
            unsigned steps)
      : LRScheduler(optimizer),
        step_size(step_size),
        end_factor(end_factor),
        diff_((start_factor - end_factor) / static_cast<double>(steps / step_size)),
        factor_(start_factor),
        lrs_base_(get_current_lrs()) {}

 private:
  std::vector<double> get_lrs() override {
    if (step_count_ % step_size == 0) factor_ = std::max(end_factor, factor_ - diff_);
    std::vector<double> lrs(lrs_base_.size());
    for (size_t i = 0; i < lrs.size(); ++i) lrs[i] = factor_ * lrs_base_[i];
    return lrs;
  }
  unsigned step_size;
  double end_factor, diff_, factor_;
  std::vector<double> lrs_base_;
};

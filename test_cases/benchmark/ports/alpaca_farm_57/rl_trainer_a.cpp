// PPO step for RLHF over pre-collected rollouts, with an accelerate-style
// helper: accumulate() marks whether the current rollout batch closes the
// accumulation window, and the wrapped optimizer only steps and clears the
// gradients when it does.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct GradientState {
  int num_steps = 1;
  int64_t step = 0;
  bool sync_gradients = true;
};

class AcceleratedOptimizer {
 public:
  AcceleratedOptimizer(std::unique_ptr<torch::optim::Optimizer> opt, GradientState& gs)
      : optimizer(std::move(opt)), gs_(gs) {}
  void step() {
    if (gs_.sync_gradients) optimizer->step();
  }
  void zero_grad() {
    if (gs_.sync_gradients) optimizer->zero_grad();
  }
  std::unique_ptr<torch::optim::Optimizer> optimizer;

 private:
  GradientState& gs_;
};

struct ActorCritic : torch::nn::Module {
  ActorCritic(int64_t vocab, int64_t dim) {
    backbone = register_module("backbone", torch::nn::Embedding(vocab, dim));
    policy_head = register_module("policy_head", torch::nn::Linear(dim, vocab));
    value_head = register_module("value_head", torch::nn::Linear(dim, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& queries) {
    auto h = torch::tanh(backbone->forward(queries));
    return {policy_head->forward(h).log_softmax(-1), value_head->forward(h).squeeze(-1)};
  }
  torch::nn::Embedding backbone{nullptr};
  torch::nn::Linear policy_head{nullptr}, value_head{nullptr};
};

struct RolloutsBatch {
  torch::Tensor queries, responses, old_logprobs, advantages, returns;
};

class PPOTrainer {
 public:
  PPOTrainer(int gradient_accumulation_steps, double max_grad_norm)
      : policy_(std::make_shared<ActorCritic>(1000, 64)), max_grad_norm_(max_grad_norm),
        optimizer_(std::make_unique<torch::optim::Adam>(policy_->parameters(), torch::optim::AdamOptions(1e-5)), gs_) {
    gs_.num_steps = gradient_accumulation_steps;
  }

  void accumulate(int64_t batch_idx, int64_t num_batches) {
    gs_.step = batch_idx + 1;
    gs_.sync_gradients = gs_.step % gs_.num_steps == 0 || gs_.step == num_batches;
  }

  torch::Tensor compute_policy_loss(const RolloutsBatch& b) {
    auto [logprobs_all, values] = policy_->forward(b.queries);
    auto logprobs = logprobs_all.gather(-1, b.responses.unsqueeze(-1)).squeeze(-1);
    auto ratio = (logprobs - b.old_logprobs).exp();
    auto pg1 = -b.advantages * ratio;
    auto pg2 = -b.advantages * ratio.clamp(0.8, 1.2);
    auto pg_loss = torch::max(pg1, pg2).mean();
    auto vf_loss = 0.5 * (values - b.returns).pow(2).mean();
    return pg_loss + 0.1 * vf_loss;
  }

  void step_with_rollouts(const std::vector<RolloutsBatch>& rollouts_dataloader, int noptepochs) {
    for (int epoch = 0; epoch < noptepochs; ++epoch) {
      for (size_t batch_idx = 0; batch_idx < rollouts_dataloader.size(); ++batch_idx) {
        accumulate(batch_idx, rollouts_dataloader.size());
        auto ppo_loss = compute_policy_loss(rollouts_dataloader[batch_idx]);
        (ppo_loss / gs_.num_steps).backward();
        if (gs_.sync_gradients && max_grad_norm_ > 0)
          torch::nn::utils::clip_grad_norm_(policy_->parameters(), max_grad_norm_);
        optimizer_.step();
        optimizer_.zero_grad();
        if (gs_.sync_gradients) stats_.log({{"ppo_loss", ppo_loss.item<double>()}}, ++updates_);
      }
    }
  }

 private:
  std::shared_ptr<ActorCritic> policy_;
  double max_grad_norm_;
  GradientState gs_;
  AcceleratedOptimizer optimizer_;
  int64_t updates_ = 0;
  ports::MetricsLogger stats_{"ppo"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  PPOTrainer trainer(args.get_int("--gradient_accumulation_steps", 8), 1.0);
  torch::manual_seed(0);
  std::vector<RolloutsBatch> rollouts;
  for (int i = 0; i < 32; ++i)
    rollouts.push_back({torch::randint(1000, {4, 16}, torch::kLong), torch::randint(1000, {4, 16}, torch::kLong),
                        -torch::rand({4, 16}) * 5, torch::randn({4, 16}), torch::randn({4, 16})});
  trainer.step_with_rollouts(rollouts, args.get_int("--noptepochs", 2));
  return 0;
}

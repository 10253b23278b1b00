// EAGLE-3 style speculative-decoding recipe: a frozen target model produces
// hidden states and next-token distributions, a one-layer draft head learns to
// predict the target's next token from them. The draft is trained with
// gradient accumulation and a cosine schedule sized in optimizer steps.
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

struct TargetModel : torch::nn::Module {
  TargetModel(int64_t vocab, int64_t dim) {
    embed = register_module("embed", torch::nn::Embedding(vocab, dim));
    body = register_module("body", torch::nn::Linear(dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& ids) {
    auto hidden = torch::tanh(body->forward(embed->forward(ids)));
    return {hidden, lm_head->forward(hidden)};
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear body{nullptr}, lm_head{nullptr};
};

struct Eagle3Draft : torch::nn::Module {
  Eagle3Draft(int64_t vocab, int64_t dim) {
    fc = register_module("fc", torch::nn::Linear(2 * dim, dim));
    head = register_module("head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& hidden, const torch::Tensor& prev_hidden) {
    return head->forward(torch::silu(fc->forward(torch::cat({hidden, prev_hidden}, -1))));
  }
  torch::nn::Linear fc{nullptr}, head{nullptr};
};

struct RecipeConfig {
  int num_epochs = 3;
  int grad_accumulation_steps = 4;
  double lr = 1e-4;
  double min_lr_ratio = 0.1;
  double max_grad_norm = 0.5;
};

class CosineDecay : public torch::optim::LRScheduler {
 public:
  CosineDecay(torch::optim::Optimizer& opt, unsigned total, double lr, double min_ratio)
      : LRScheduler(opt), total_(total), lr_(lr), min_ratio_(min_ratio) {}

 protected:
  std::vector<double> get_lrs() override {
    const double progress = std::min(1.0, double(step_count_) / std::max(1u, total_));
    return {lr_ * (min_ratio_ + (1 - min_ratio_) * 0.5 * (1 + std::cos(M_PI * progress)))};
  }

 private:
  unsigned total_;
  double lr_, min_ratio_;
};

static torch::Tensor draft_loss(Eagle3Draft& draft, TargetModel& target, const ports::TokenBatch& batch) {
  torch::Tensor hidden, target_logits;
  {
    torch::NoGradGuard no_grad;
    std::tie(hidden, target_logits) = target.forward(batch.input_ids);
  }
  auto prev_hidden = torch::roll(hidden, 1, 1);
  auto logits = draft.forward(hidden, prev_hidden);
  // Soft cross-entropy against the target distribution.
  return -(target_logits.softmax(-1) * logits.log_softmax(-1)).sum(-1).mean();
}

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  RecipeConfig cfg;
  cfg.grad_accumulation_steps = args.get_int("--grad_accumulation_steps", 4);
  auto dataloader = ports::make_token_batches(50, 4, 64, 3000);
  TargetModel target(3000, 96);
  target.eval();
  for (auto& p : target.parameters()) p.set_requires_grad(false);
  auto draft = std::make_shared<Eagle3Draft>(3000, 96);

  torch::optim::AdamW optimizer(draft->parameters(), torch::optim::AdamWOptions(cfg.lr).betas({0.9, 0.95}));
  const int64_t num_batches_per_epoch = dataloader.size();
  const unsigned optim_steps_per_epoch =
      (num_batches_per_epoch + cfg.grad_accumulation_steps - 1) / cfg.grad_accumulation_steps;
  CosineDecay lr_scheduler(optimizer, optim_steps_per_epoch * cfg.num_epochs, cfg.lr, cfg.min_lr_ratio);
  ports::MetricsLogger logger("eagle3");

  int64_t global_step = 0;
  for (int epoch = 0; epoch < cfg.num_epochs; ++epoch) {
    optimizer.zero_grad();
    draft->train();
    for (int64_t step = 0; step < num_batches_per_epoch; ++step) {
      auto loss = draft_loss(*draft, target, dataloader[step]);
      (loss / cfg.grad_accumulation_steps).backward();
      if ((step + 1) % cfg.grad_accumulation_steps == 0) {
        torch::nn::utils::clip_grad_norm_(draft->parameters(), cfg.max_grad_norm);
        optimizer.step();
        lr_scheduler.step();
        optimizer.zero_grad();
        ++global_step;
        logger.log({{"loss", loss.item<double>()}}, global_step);
      }
    }
    // Step on the micro-batches left over at the end of the epoch. Their losses
    // were divided by the full window size, so bring the sum back to a mean.
    const int64_t pending_micro_batches = num_batches_per_epoch % cfg.grad_accumulation_steps;
    if (pending_micro_batches != 0) {
      const double rescale = double(cfg.grad_accumulation_steps) / pending_micro_batches;
      for (auto& p : draft->parameters())
        if (p.grad().defined()) p.grad().mul_(rescale);
      torch::nn::utils::clip_grad_norm_(draft->parameters(), cfg.max_grad_norm);
      optimizer.step();
      lr_scheduler.step();
      optimizer.zero_grad();
      ++global_step;
    }
  }
  return 0;
}

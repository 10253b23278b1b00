// A LightningModule-style protein language model and a minimal Trainer whose
// fit loop accumulates `accumulate_grad_batches` batches per optimizer step and
// updates step-interval learning-rate schedulers.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>
#include <string>

struct SchedulerConfig {
  std::shared_ptr<torch::optim::LRScheduler> scheduler;
  std::string interval = "epoch";  // "step" or "epoch"
  int frequency = 1;
};

struct OptimizerConfig {
  std::shared_ptr<torch::optim::Optimizer> optimizer;
  SchedulerConfig lr_scheduler;
};

class LightningModule : public torch::nn::Module {
 public:
  virtual torch::Tensor training_step(const ports::TokenBatch& batch, int64_t batch_idx) = 0;
  virtual OptimizerConfig configure_optimizers() = 0;
  virtual void on_train_epoch_end(int epoch) {}
};

class MaskedLM : public LightningModule {
 public:
  MaskedLM(int64_t vocab, int64_t dim) : vocab_(vocab) {
    embed_ = register_module("embed", torch::nn::Embedding(vocab, dim));
    mix_ = register_module("mix", torch::nn::Linear(dim, dim));
    lm_head_ = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor training_step(const ports::TokenBatch& batch, int64_t) override {
    auto h = torch::gelu(mix_->forward(embed_->forward(batch.input_ids)));
    auto logits = lm_head_->forward(h);
    return torch::nn::functional::cross_entropy(
        logits.view({-1, vocab_}), batch.labels.view({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
  }
  OptimizerConfig configure_optimizers() override {
    auto opt = std::make_shared<torch::optim::Adam>(parameters(), torch::optim::AdamOptions(1e-4));
    // Halve the rate every 16000 optimizer updates.
    auto sched = std::make_shared<torch::optim::StepLR>(*opt, 16000, 0.5);
    return {opt, {sched, "step", 1}};
  }

 private:
  int64_t vocab_;
  torch::nn::Embedding embed_{nullptr};
  torch::nn::Linear mix_{nullptr}, lm_head_{nullptr};
};

class Trainer {
 public:
  Trainer(int max_epochs, int accumulate_grad_batches)
      : max_epochs_(max_epochs), accumulate_grad_batches_(accumulate_grad_batches) {}

  void fit(LightningModule& module, const std::vector<ports::TokenBatch>& loader) {
    auto cfg = module.configure_optimizers();
    optimizer_ = cfg.optimizer;
    sched_cfg_ = cfg.lr_scheduler;
    for (int epoch = 0; epoch < max_epochs_; ++epoch) {
      run_training_epoch(module, loader);
      update_learning_rates("epoch");
      module.on_train_epoch_end(epoch);
    }
  }

 private:
  void run_training_epoch(LightningModule& module, const std::vector<ports::TokenBatch>& loader) {
    for (size_t batch_idx = 0; batch_idx < loader.size(); ++batch_idx) {
      auto loss = module.training_step(loader[batch_idx], batch_idx);
      (loss / accumulate_grad_batches_).backward();
      running_loss_ += loss.item<double>();

      const bool should_accumulate = (batch_idx + 1) % accumulate_grad_batches_ != 0 &&
                                     batch_idx + 1 != loader.size();
      if (!should_accumulate) {
        optimizer_->step();
        optimizer_->zero_grad();
        ++global_step_;
      }
      update_learning_rates("step");

      if (global_step_ % 50 == 0)
        logger_.log({{"train_loss", running_loss_ / (batch_idx + 1)}}, global_step_);
    }
    running_loss_ = 0.0;
  }

  void update_learning_rates(const std::string& interval) {
    if (!sched_cfg_.scheduler || sched_cfg_.interval != interval) return;
    sched_cfg_.scheduler->step();
  }

  int max_epochs_;
  int accumulate_grad_batches_;
  int64_t global_step_ = 0;
  double running_loss_ = 0.0;
  std::shared_ptr<torch::optim::Optimizer> optimizer_;
  SchedulerConfig sched_cfg_;
  ports::MetricsLogger logger_{"lightning"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  auto loader = ports::make_token_batches(64, 8, 128, 33);
  MaskedLM model(33, 256);
  Trainer trainer(args.get_int("--max_epochs", 2), args.get_int("--accumulate_grad_batches", 16));
  trainer.fit(model, loader);
  return 0;
}

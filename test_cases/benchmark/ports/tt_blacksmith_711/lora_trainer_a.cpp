// Experiment trainer for LoRA fine-tuning of a language model: a config
// struct, a Trainer that owns model/optimizer/scheduler, per-batch
// train_step(), an _optimizer_step() helper and periodic validation.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct TrainingConfig {
  int epochs = 2;
  int gradient_accumulation_steps = 4;
  int log_every = 8;
  int val_every = 32;
  double learning_rate = 1e-4;
  int lora_rank = 8;
};

struct LoraLM : torch::nn::Module {
  LoraLM(int64_t vocab, int64_t dim, int64_t rank) : vocab(vocab) {
    embedding = register_module("embedding", torch::nn::Embedding(vocab, dim));
    frozen = register_module("frozen", torch::nn::Linear(dim, dim));
    lora_down = register_module("lora_down", torch::nn::Linear(torch::nn::LinearOptions(dim, rank).bias(false)));
    lora_up = register_module("lora_up", torch::nn::Linear(torch::nn::LinearOptions(rank, dim).bias(false)));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
    for (auto& p : embedding->parameters()) p.set_requires_grad(false);
    for (auto& p : frozen->parameters()) p.set_requires_grad(false);
    for (auto& p : lm_head->parameters()) p.set_requires_grad(false);
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    auto h = embedding->forward(ids);
    h = frozen->forward(h) + lora_up->forward(lora_down->forward(h));
    return lm_head->forward(torch::gelu(h));
  }
  std::vector<torch::Tensor> lora_parameters() {
    auto a = lora_down->parameters();
    auto b = lora_up->parameters();
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }
  int64_t vocab;
  torch::nn::Embedding embedding{nullptr};
  torch::nn::Linear frozen{nullptr}, lora_down{nullptr}, lora_up{nullptr}, lm_head{nullptr};
};

class Trainer {
 public:
  explicit Trainer(TrainingConfig cfg)
      : cfg_(cfg), model_(std::make_shared<LoraLM>(3000, 128, cfg.lora_rank)),
        optimizer_(model_->lora_parameters(), torch::optim::AdamWOptions(cfg.learning_rate)),
        scheduler_(optimizer_, 200, 0.5) {}

  void fit(const std::vector<ports::TokenBatch>& train_loader, const std::vector<ports::TokenBatch>& val_loader) {
    int64_t global_step = 0;
    for (int epoch = 0; epoch < cfg_.epochs; ++epoch) {
      double running_loss = 0.0;
      for (size_t batch_idx = 0; batch_idx < train_loader.size(); ++batch_idx) {
        running_loss += train_step(train_loader[batch_idx]);
        if ((batch_idx + 1) % cfg_.gradient_accumulation_steps == 0) {
          _optimizer_step();
          ++global_step;
          if (global_step % cfg_.log_every == 0) {
            logger_.log({{"train/loss", running_loss / cfg_.log_every}}, global_step);
            running_loss = 0.0;
          }
          if (global_step % cfg_.val_every == 0) validate(val_loader, global_step);
        }
      }
    }
  }

 private:
  torch::Tensor compute_loss(const ports::TokenBatch& batch) {
    auto logits = model_->forward(batch.input_ids);
    return torch::nn::functional::cross_entropy(
        logits.view({-1, model_->vocab}), batch.labels.view({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
  }

  double train_step(const ports::TokenBatch& batch) {
    model_->train();
    auto loss = compute_loss(batch) / cfg_.gradient_accumulation_steps;
    loss.backward();
    return loss.item<double>();
  }

  void _optimizer_step(bool zero_grad = false) {
    optimizer_.step();
    scheduler_.step();
    if (zero_grad) optimizer_.zero_grad();
  }

  void validate(const std::vector<ports::TokenBatch>& val_loader, int64_t step) {
    torch::NoGradGuard ng;
    model_->eval();
    double total = 0.0;
    for (const auto& b : val_loader) total += compute_loss(b).item<double>();
    logger_.log({{"val/loss", total / val_loader.size()}}, step);
  }

  TrainingConfig cfg_;
  std::shared_ptr<LoraLM> model_;
  torch::optim::AdamW optimizer_;
  torch::optim::StepLR scheduler_;
  ports::MetricsLogger logger_{"lora-llm"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  TrainingConfig cfg;
  cfg.gradient_accumulation_steps = args.get_int("--gradient_accumulation_steps", 4);
  auto train = ports::make_token_batches(128, 4, 64, 3000, 1);
  auto val = ports::make_token_batches(8, 4, 64, 3000, 2);
  Trainer trainer(cfg);
  trainer.fit(train, val);
  return 0;
}

// Data-parallel supervised fine-tuning trainer: each rank receives its share of
// the global batch, splits it into micro-batches that fit in memory, and
// accumulates their gradients before one optimizer step. Gradients are
// averaged across ranks with a hand-written all-reduce over Gloo.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct SFTConfig {
  int64_t train_batch_size_per_gpu = 32;
  int64_t micro_batch_size_per_gpu = 8;
  double lr = 1e-5;
  double clip_grad = 1.0;
  int total_steps = 100;
};

struct ActorLM : torch::nn::Module {
  ActorLM(int64_t vocab, int64_t dim) : vocab(vocab) {
    embed_tokens = register_module("embed_tokens", torch::nn::Embedding(vocab, dim));
    mlp = register_module("mlp", torch::nn::Linear(dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    return lm_head->forward(torch::silu(mlp->forward(embed_tokens->forward(ids))));
  }
  int64_t vocab;
  torch::nn::Embedding embed_tokens{nullptr};
  torch::nn::Linear mlp{nullptr}, lm_head{nullptr};
};

class FSDPSFTTrainer {
 public:
  FSDPSFTTrainer(SFTConfig config, c10::intrusive_ptr<c10d::ProcessGroupGloo> pg)
      : config_(config), pg_(std::move(pg)), model_(std::make_shared<ActorLM>(8000, 128)),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(config.lr).betas({0.9, 0.95}).weight_decay(0.01)) {}

  double training_step(const ports::TokenBatch& batch) {
    model_->train();
    optimizer_.zero_grad();
    auto ids = batch.input_ids.split(config_.micro_batch_size_per_gpu);
    auto labels = batch.labels.split(config_.micro_batch_size_per_gpu);
    const int64_t n_micro_batches = ids.size();
    double step_loss = 0.0;
    for (int64_t i = 0; i < n_micro_batches; ++i) {
      auto loss = _compute_loss_and_backward({ids[i], labels[i]}) / n_micro_batches;
      step_loss += loss.item<double>();
    }
    auto grad_norm = torch::nn::utils::clip_grad_norm_(model_->parameters(), config_.clip_grad);
    if (std::isfinite(grad_norm)) {
      optimizer_.step();
    } else {
      optimizer_.zero_grad();
    }
    return step_loss;
  }

 private:
  torch::Tensor _compute_loss_and_backward(const ports::TokenBatch& micro_batch) {
    auto logits = model_->forward(micro_batch.input_ids);
    auto loss = torch::nn::functional::cross_entropy(
        logits.view({-1, model_->vocab}), micro_batch.labels.view({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
    loss.backward();
    all_reduce_grads();
    return loss.detach();
  }

  void all_reduce_grads() {
    for (auto& p : model_->parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> buf{p.grad()};
      pg_->allreduce(buf)->wait();
      p.grad().div_(pg_->getSize());
    }
  }

  SFTConfig config_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
  std::shared_ptr<ActorLM> model_;
  torch::optim::AdamW optimizer_;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int rank = args.get_int("--rank", 0);
  const int world_size = 2;
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/verl_sft_store", world_size);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, opts);

  SFTConfig config;
  config.micro_batch_size_per_gpu = args.get_int("--micro_batch_size_per_gpu", 8);
  FSDPSFTTrainer trainer(config, pg);
  auto data = ports::make_token_batches(config.total_steps, config.train_batch_size_per_gpu, 64, 8000, 7 + rank);
  ports::MetricsLogger tracking("sft");
  for (int step = 0; step < config.total_steps; ++step) {
    const double loss = trainer.training_step(data[step]);
    if (rank == 0 && step % 10 == 0) tracking.log({{"train/loss", loss}}, step);
  }
  return 0;
}

// Supervised fine-tuning of a small causal LM held in bfloat16, the way a
// sharded-data-parallel setup keeps the parameters: per-device batch size 1
// and a long accumulation window to reach the effective batch size.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct SmolLM : torch::nn::Module {
  SmolLM(int64_t vocab, int64_t dim) : vocab(vocab) {
    embed_tokens = register_module("embed_tokens", torch::nn::Embedding(vocab, dim));
    mlp_up = register_module("mlp_up", torch::nn::Linear(dim, 4 * dim));
    mlp_down = register_module("mlp_down", torch::nn::Linear(4 * dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    auto h = embed_tokens->forward(ids);
    h = h + mlp_down->forward(torch::silu(mlp_up->forward(h)));
    return lm_head->forward(h);
  }
  int64_t vocab;
  torch::nn::Embedding embed_tokens{nullptr};
  torch::nn::Linear mlp_up{nullptr}, mlp_down{nullptr}, lm_head{nullptr};
};

struct SFTConfig {
  int per_device_train_batch_size = 1;
  int gradient_accumulation_steps = 32;
  double learning_rate = 2e-5;
  int num_train_epochs = 1;
  int logging_steps = 5;
};

class SFTTrainer {
 public:
  SFTTrainer(std::shared_ptr<SmolLM> model, SFTConfig args) : model_(std::move(model)), args_(args) {
    model_->to(torch::kBFloat16);
    optimizer_ = std::make_unique<torch::optim::AdamW>(model_->parameters(),
                                                       torch::optim::AdamWOptions(args_.learning_rate).weight_decay(0.0));
  }

  void train(const std::vector<ports::TokenBatch>& dataset) {
    int64_t global_step = 0;
    for (int epoch = 0; epoch < args_.num_train_epochs; ++epoch) {
      for (size_t step = 0; step < dataset.size(); ++step) {
        const auto& batch = dataset[step];
        auto logits = model_->forward(batch.input_ids).to(torch::kFloat);
        auto loss = torch::nn::functional::cross_entropy(
            logits.view({-1, model_->vocab}), batch.labels.view({-1}),
            torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
        (loss / args_.gradient_accumulation_steps).backward();
        if ((step + 1) % args_.gradient_accumulation_steps == 0) {
          torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
          optimizer_->step();
          optimizer_->zero_grad();
          if (++global_step % args_.logging_steps == 0) log_.log({{"loss", loss.item<double>()}}, global_step);
        }
      }
    }
  }

 private:
  std::shared_ptr<SmolLM> model_;
  SFTConfig args_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  ports::MetricsLogger log_{"sft"};
};

int main(int argc, char** argv) {
  ports::ArgReader reader(argc, argv);
  SFTConfig args;
  args.gradient_accumulation_steps = reader.get_int("--gradient_accumulation_steps", 32);
  auto data = ports::make_token_batches(32 * 20, args.per_device_train_batch_size, 128, 4096);
  SFTTrainer trainer(std::make_shared<SmolLM>(4096, 96), args);
  trainer.train(data);
  return 0;
}

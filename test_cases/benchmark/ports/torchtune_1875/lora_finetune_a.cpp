// LoRA fine-tuning recipe on one device: the base projections are frozen and
// only the low-rank adapters train. The recipe object exposes setup(),
// train() and a _loss_step() that returns the token-mean cross-entropy of a
// batch (padding positions are ignored, and batches pad differently).
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

struct LoRALinear : torch::nn::Module {
  LoRALinear(int64_t in, int64_t out, int64_t rank, double alpha) : scaling(alpha / rank) {
    base = register_module("base", torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false)));
    lora_a = register_module("lora_a", torch::nn::Linear(torch::nn::LinearOptions(in, rank).bias(false)));
    lora_b = register_module("lora_b", torch::nn::Linear(torch::nn::LinearOptions(rank, out).bias(false)));
    torch::NoGradGuard ng;
    lora_b->weight.zero_();
    base->weight.set_requires_grad(false);
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return base->forward(x) + scaling * lora_b->forward(lora_a->forward(x));
  }
  double scaling;
  torch::nn::Linear base{nullptr}, lora_a{nullptr}, lora_b{nullptr};
};

struct LoRADecoder : torch::nn::Module {
  LoRADecoder(int64_t vocab, int64_t dim) : vocab(vocab) {
    tok_embeddings = register_module("tok_embeddings", torch::nn::Embedding(vocab, dim));
    q_proj = register_module("q_proj", std::make_shared<LoRALinear>(dim, dim, 8, 16.0));
    v_proj = register_module("v_proj", std::make_shared<LoRALinear>(dim, dim, 8, 16.0));
    output = register_module("output", torch::nn::Linear(dim, vocab));
    tok_embeddings->weight.set_requires_grad(false);
    for (auto& p : output->parameters()) p.set_requires_grad(false);
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto h = tok_embeddings->forward(tokens);
    h = h + torch::silu(q_proj->forward(h)) * v_proj->forward(h);
    return output->forward(h);
  }
  std::vector<torch::Tensor> trainable_parameters() {
    std::vector<torch::Tensor> out;
    for (auto& p : parameters())
      if (p.requires_grad()) out.push_back(p);
    return out;
  }
  int64_t vocab;
  torch::nn::Embedding tok_embeddings{nullptr};
  std::shared_ptr<LoRALinear> q_proj, v_proj;
  torch::nn::Linear output{nullptr};
};

class LoRAFinetuneRecipeSingleDevice {
 public:
  LoRAFinetuneRecipeSingleDevice(int gradient_accumulation_steps, int epochs)
      : gradient_accumulation_steps_(gradient_accumulation_steps), total_epochs_(epochs) {}

  void setup() {
    model_ = std::make_shared<LoRADecoder>(32000, 128);
    optimizer_ = std::make_unique<torch::optim::AdamW>(model_->trainable_parameters(),
                                                       torch::optim::AdamWOptions(3e-4).weight_decay(0.01));
    lr_scheduler_ = std::make_unique<torch::optim::StepLR>(*optimizer_, 100, 0.5);
  }

  torch::Tensor _loss_step(const ports::TokenBatch& batch) {
    auto logits = model_->forward(batch.input_ids);
    return torch::nn::functional::cross_entropy(
        logits.reshape({-1, model_->vocab}), batch.labels.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(ignore_index_));
  }

  void train(const std::vector<ports::TokenBatch>& dataloader) {
    optimizer_->zero_grad();
    torch::Tensor running_loss = torch::zeros({});
    for (int curr_epoch = 0; curr_epoch < total_epochs_; ++curr_epoch) {
      for (size_t idx = 0; idx < dataloader.size(); ++idx) {
        auto loss = _loss_step(dataloader[idx]);
        loss = loss / gradient_accumulation_steps_;
        running_loss += loss.detach();
        loss.backward();

        if ((idx + 1) % gradient_accumulation_steps_ == 0) {
          optimizer_->step();
          optimizer_->zero_grad();
          lr_scheduler_->step();
          ++global_step_;
          metric_logger_.log({{"loss", running_loss.item<double>()}}, global_step_);
          running_loss = torch::zeros({});
        }
      }
    }
  }

 private:
  int gradient_accumulation_steps_;
  int total_epochs_;
  const int64_t ignore_index_ = -100;
  int64_t global_step_ = 0;
  std::shared_ptr<LoRADecoder> model_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  std::unique_ptr<torch::optim::StepLR> lr_scheduler_;
  ports::MetricsLogger metric_logger_{"lora_finetune"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  auto data = ports::make_token_batches(96, 2, 256, 32000);
  LoRAFinetuneRecipeSingleDevice recipe(args.get_int("--gradient_accumulation_steps", 16), args.get_int("--epochs", 1));
  recipe.setup();
  recipe.train(data);
  return 0;
}

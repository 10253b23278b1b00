// Single-device full fine-tuning recipe: setup() builds the model, optimizer
// and cosine schedule, train() runs the epochs. Losses are token means; each
// micro-batch's loss is multiplied back by its token count and the summed
// gradients are divided by the window's token count before the step.
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

namespace training {
// Multiplies every gradient by `scaler` in place.
inline void scale_grads(torch::nn::Module& model, const torch::Tensor& scaler) {
  for (auto& p : model.parameters())
    if (p.grad().defined()) p.grad().mul_(scaler);
}
}  // namespace training

class CosineWithWarmup : public torch::optim::LRScheduler {
 public:
  CosineWithWarmup(torch::optim::Optimizer& opt, unsigned warmup, unsigned total, double lr)
      : LRScheduler(opt), warmup_(warmup), total_(total), lr_(lr) {}

 protected:
  std::vector<double> get_lrs() override {
    if (step_count_ < warmup_) return {lr_ * (step_count_ + 1) / warmup_};
    const double progress = double(step_count_ - warmup_) / std::max(1u, total_ - warmup_);
    return {lr_ * 0.5 * (1 + std::cos(M_PI * std::min(1.0, progress)))};
  }

 private:
  unsigned warmup_, total_;
  double lr_;
};

struct Decoder : torch::nn::Module {
  Decoder(int64_t vocab, int64_t dim) : vocab(vocab) {
    tok = register_module("tok", torch::nn::Embedding(vocab, dim));
    layer = register_module("layer", torch::nn::Linear(dim, dim));
    output = register_module("output", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    return output->forward(torch::silu(layer->forward(tok->forward(ids))));
  }
  int64_t vocab;
  torch::nn::Embedding tok{nullptr};
  torch::nn::Linear layer{nullptr}, output{nullptr};
};

class FullFinetuneRecipeSingleDevice {
 public:
  explicit FullFinetuneRecipeSingleDevice(int gradient_accumulation_steps, int total_epochs)
      : gradient_accumulation_steps_(gradient_accumulation_steps), total_epochs_(total_epochs) {}

  void setup(const std::vector<ports::TokenBatch>& dataloader) {
    dataloader_ = &dataloader;
    model_ = std::make_shared<Decoder>(4096, 128);
    optimizer_ = std::make_unique<torch::optim::AdamW>(model_->parameters(), torch::optim::AdamWOptions(2e-5).weight_decay(0.01));
    const unsigned steps_per_epoch = dataloader.size() / gradient_accumulation_steps_;
    lr_scheduler_ = std::make_unique<CosineWithWarmup>(*optimizer_, 10, steps_per_epoch * total_epochs_, 2e-5);
  }

  torch::Tensor _loss_step(const ports::TokenBatch& batch) {
    auto logits = model_->forward(batch.input_ids);
    return torch::nn::functional::cross_entropy(
        logits.reshape({-1, model_->vocab}), batch.labels.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
  }

  void train() {
    optimizer_->zero_grad();
    torch::Tensor running_loss = torch::zeros({});
    torch::Tensor num_tokens = torch::zeros({}, torch::kLong);
    for (int curr_epoch = 0; curr_epoch < total_epochs_; ++curr_epoch) {
      for (size_t idx = 0; idx < dataloader_->size(); ++idx) {
        const auto& batch = (*dataloader_)[idx];
        auto current_num_tokens = batch.labels.ne(-100).sum();
        num_tokens += current_num_tokens;
        auto current_loss = _loss_step(batch) * current_num_tokens;
        running_loss += current_loss.detach();
        current_loss.backward();

        if (++accum_count_ % gradient_accumulation_steps_ == 0) {
          training::scale_grads(*model_, 1.0 / num_tokens.to(torch::kFloat));
          auto grad_norm = torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
          optimizer_->step();
          optimizer_->zero_grad();
          lr_scheduler_->step();
          ++global_step_;
          logger_.log({{"loss", (running_loss / num_tokens).item<double>()}, {"grad_norm", grad_norm}},
                      global_step_);
          running_loss = torch::zeros({});
          num_tokens = torch::zeros({}, torch::kLong);
        }
      }
      epochs_run_ = curr_epoch + 1;
    }
  }

 private:
  int gradient_accumulation_steps_;
  int total_epochs_;
  int epochs_run_ = 0;
  int64_t global_step_ = 0;
  // Micro-batches seen since training started; windows may straddle epochs.
  int64_t accum_count_ = 0;
  const std::vector<ports::TokenBatch>* dataloader_ = nullptr;
  std::shared_ptr<Decoder> model_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  std::unique_ptr<CosineWithWarmup> lr_scheduler_;
  ports::MetricsLogger logger_{"full_finetune"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  auto data = ports::make_token_batches(63, 4, 128, 4096);
  FullFinetuneRecipeSingleDevice recipe(args.get_int("--gradient_accumulation_steps", 8),
                                        args.get_int("--epochs", 3));
  recipe.setup(data);
  recipe.train();
  return 0;
}

// Causal-LM fine-tuning with a Trainer shaped like the transformers Trainer:
// _inner_training_loop() pulls the batches of one update at a time,
// training_step() runs forward/backward, compute_loss() asks the model for its
// loss. Sequences have variable lengths, so micro-batches hold different
// numbers of supervised tokens.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>
#include <optional>

struct TrainingArguments {
  int num_train_epochs = 1;
  int gradient_accumulation_steps = 4;
  double learning_rate = 5e-5;
  double max_grad_norm = 1.0;
  int logging_steps = 5;
};

struct TinyCausalLM : torch::nn::Module {
  TinyCausalLM(int64_t vocab, int64_t dim) : vocab_size(vocab) {
    wte = register_module("wte", torch::nn::Embedding(vocab, dim));
    block = register_module("block", torch::nn::Linear(dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  // Shifted next-token loss; summed over tokens and divided by the number of
  // supervised tokens of the whole accumulated batch when that count is given.
  torch::Tensor forward(const ports::TokenBatch& batch, std::optional<int64_t> num_items_in_batch) {
    auto h = torch::gelu(block->forward(wte->forward(batch.input_ids)));
    auto logits = lm_head->forward(h);
    using namespace torch::indexing;
    auto shift_logits = logits.index({Slice(), Slice(None, -1)}).reshape({-1, vocab_size});
    auto shift_labels = batch.labels.index({Slice(), Slice(1, None)}).reshape({-1});
    namespace F = torch::nn::functional;
    if (num_items_in_batch) {
      auto loss = F::cross_entropy(shift_logits, shift_labels,
                                   F::CrossEntropyFuncOptions().ignore_index(-100).reduction(torch::kSum));
      return loss / static_cast<double>(*num_items_in_batch);
    }
    return F::cross_entropy(shift_logits, shift_labels, F::CrossEntropyFuncOptions().ignore_index(-100));
  }
  int64_t vocab_size;
  torch::nn::Embedding wte{nullptr};
  torch::nn::Linear block{nullptr}, lm_head{nullptr};
};

class Trainer {
 public:
  Trainer(std::shared_ptr<TinyCausalLM> model, TrainingArguments args)
      : model_(std::move(model)), args_(args),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(args.learning_rate)) {}

  void train(const std::vector<ports::TokenBatch>& train_dataset) { _inner_training_loop(train_dataset); }

 private:
  // Takes the next `n` batches and counts the supervised (shifted) tokens in all of them.
  std::pair<std::vector<ports::TokenBatch>, int64_t> get_batch_samples(
      const std::vector<ports::TokenBatch>& data, size_t& cursor, int n) {
    std::vector<ports::TokenBatch> samples;
    int64_t num_items = 0;
    using namespace torch::indexing;
    for (int i = 0; i < n && cursor < data.size(); ++i, ++cursor) {
      samples.push_back(data[cursor]);
      num_items += data[cursor].labels.index({Slice(), Slice(1, None)}).ne(-100).sum().item<int64_t>();
    }
    return {samples, num_items};
  }

  torch::Tensor compute_loss(const ports::TokenBatch& inputs, std::optional<int64_t> num_items_in_batch) {
    return model_->forward(inputs, num_items_in_batch);
  }

  torch::Tensor training_step(const ports::TokenBatch& inputs, std::optional<int64_t> num_items_in_batch) {
    model_->train();
    auto loss = compute_loss(inputs, num_items_in_batch);
    loss.backward();
    return loss.detach();
  }

  void _inner_training_loop(const std::vector<ports::TokenBatch>& data) {
    const int ga = args_.gradient_accumulation_steps;
    for (int epoch = 0; epoch < args_.num_train_epochs; ++epoch) {
      size_t cursor = 0;
      while (cursor < data.size()) {
        auto [batch_samples, num_items_in_batch] = get_batch_samples(data, cursor, ga);
        torch::Tensor tr_loss = torch::zeros({});
        for (const auto& inputs : batch_samples)
          tr_loss += training_step(inputs, num_items_in_batch);
        torch::nn::utils::clip_grad_norm_(model_->parameters(), args_.max_grad_norm);
        optimizer_.step();
        optimizer_.zero_grad();
        ++global_step_;
        if (global_step_ % args_.logging_steps == 0)
          logger_.log({{"loss", tr_loss.item<double>()}}, global_step_);
      }
    }
  }

  std::shared_ptr<TinyCausalLM> model_;
  TrainingArguments args_;
  torch::optim::AdamW optimizer_;
  int64_t global_step_ = 0;
  ports::MetricsLogger logger_{"trainer"};
};

int main(int argc, char** argv) {
  ports::ArgReader reader(argc, argv);
  TrainingArguments args;
  args.gradient_accumulation_steps = reader.get_int("--gradient_accumulation_steps", 4);
  auto data = ports::make_token_batches(64, 2, 256, 5000);
  auto model = std::make_shared<TinyCausalLM>(5000, 128);
  Trainer trainer(model, args);
  trainer.train(data);
  return 0;
}

// Data-parallel LLM pre-training step on two Gloo ranks. The loss of a step
// is normalised by the number of valid tokens of the whole global batch (all
// micro-batches of all ranks), counted up front with an all-reduce; the
// gradients are then reduced across ranks once per step by a replicate-style
// hook before clipping and the optimizer step.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct Llama : torch::nn::Module {
  Llama(int64_t vocab, int64_t dim) : vocab(vocab) {
    tok_embeddings = register_module("tok_embeddings", torch::nn::Embedding(vocab, dim));
    attention_wo = register_module("attention_wo", torch::nn::Linear(dim, dim));
    feed_forward = register_module("feed_forward", torch::nn::Linear(dim, dim));
    output = register_module("output", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto h = tok_embeddings->forward(tokens);
    h = h + attention_wo->forward(h);
    h = h + torch::silu(feed_forward->forward(h));
    return output->forward(h);
  }
  int64_t vocab;
  torch::nn::Embedding tok_embeddings{nullptr};
  torch::nn::Linear attention_wo{nullptr}, feed_forward{nullptr}, output{nullptr};
};

// Gradient reduction applied by the data-parallel wrapper, with the default
// mean replaced by a plain sum: the loss is already divided by the token count
// of the global batch, so the ranks' contributions only need adding up.
struct ReplicateHook {
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  void reduce_gradients(torch::nn::Module& model) {
    for (auto& p : model.parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> t{p.grad()};
      pg->allreduce(t)->wait();
    }
  }
};

class Trainer {
 public:
  Trainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, int gradient_accumulation_steps)
      : pg_(pg), model_(std::make_shared<Llama>(4096, 128)),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(3e-4).betas({0.9, 0.95}).weight_decay(0.1)),
        hook_{pg}, gradient_accumulation_steps_(gradient_accumulation_steps) {}

  double train_step(const std::vector<ports::TokenBatch>& microbatches) {
    optimizer_.zero_grad();
    // Valid tokens of this step over every micro-batch and every rank.
    auto local_valid_tokens = torch::zeros({}, torch::kFloat);
    for (const auto& mb : microbatches) local_valid_tokens += mb.labels.ne(-100).sum().to(torch::kFloat);
    std::vector<torch::Tensor> count{local_valid_tokens.unsqueeze(0)};
    pg_->allreduce(count)->wait();
    const auto global_valid_tokens = count[0].squeeze(0);

    torch::Tensor accumulated_losses = torch::zeros({});
    for (const auto& mb : microbatches) {
      auto pred = model_->forward(mb.input_ids);
      auto loss_sum = torch::nn::functional::cross_entropy(
          pred.flatten(0, 1), mb.labels.flatten(0, 1),
          torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100).reduction(torch::kSum));
      auto loss = loss_sum / global_valid_tokens;
      loss.backward();
      accumulated_losses += loss.detach();
    }
    hook_.reduce_gradients(*model_);
    torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
    optimizer_.step();
    return accumulated_losses.item<double>();
  }

  int gradient_accumulation_steps() const { return gradient_accumulation_steps_; }

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  std::shared_ptr<Llama> model_;
  torch::optim::AdamW optimizer_;
  ReplicateHook hook_;
  int gradient_accumulation_steps_;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int rank = args.get_int("--rank", 0);
  const int world_size = 2;
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/titan_dp_store", world_size);
  auto o = c10d::ProcessGroupGloo::Options::create();
  o->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, o);

  Trainer trainer(pg, args.get_int("--training.gradient_accumulation_steps", 4));
  auto data = ports::make_token_batches(400, 4, 128, 4096, 21 + rank);
  ports::MetricsLogger metrics("titan");
  const int ga = trainer.gradient_accumulation_steps();
  for (size_t start = 0, step = 1; start + ga <= data.size(); start += ga, ++step) {
    std::vector<ports::TokenBatch> microbatches(data.begin() + start, data.begin() + start + ga);
    const double loss = trainer.train_step(microbatches);
    if (rank == 0 && step % 10 == 0) metrics.log({{"loss", loss}}, step);
  }
  return 0;
}

// NanoGPT training demo in the layout of a C++ training framework demo: a
// gradient-accumulation helper object decides when to zero, scale and step,
// a training_step lambda does one micro-batch, and data-parallel runs
// average the gradients across ranks with a Gloo process group.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

class GradientAccumulator {
 public:
  explicit GradientAccumulator(uint32_t accumulation_steps) : accumulation_steps_(accumulation_steps) {}
  bool should_zero_grad() const { return steps_ % accumulation_steps_ == 0; }
  bool should_step() const { return steps_ % accumulation_steps_ == 0; }
  torch::Tensor scale(const torch::Tensor& loss) const {
    return accumulation_steps_ > 1 ? loss / static_cast<double>(accumulation_steps_) : loss;
  }
  void update(float loss, int64_t samples) {
    total_loss_ += loss * samples;
    total_samples_ += samples;
    ++steps_;
  }
  void reset() {
    total_loss_ = 0.0;
    total_samples_ = 0;
  }
  float average_loss() const { return total_samples_ ? total_loss_ / total_samples_ * accumulation_steps_ : 0.f; }

 private:
  uint32_t accumulation_steps_;
  uint32_t steps_ = 0;
  float total_loss_ = 0.f;
  int64_t total_samples_ = 0;
};

struct NanoGPT : torch::nn::Module {
  NanoGPT(int64_t vocab, int64_t block, int64_t dim) {
    wte = register_module("wte", torch::nn::Embedding(vocab, dim));
    wpe = register_module("wpe", torch::nn::Embedding(block, dim));
    attn_proj = register_module("attn_proj", torch::nn::Linear(dim, dim));
    mlp = register_module("mlp", torch::nn::Linear(dim, dim));
    ln_f = register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& idx) {
    auto pos = torch::arange(idx.size(1), torch::kLong);
    auto x = wte->forward(idx) + wpe->forward(pos);
    x = x + attn_proj->forward(x);
    x = x + torch::gelu(mlp->forward(x));
    return lm_head->forward(ln_f->forward(x));
  }
  torch::nn::Embedding wte{nullptr}, wpe{nullptr};
  torch::nn::Linear attn_proj{nullptr}, mlp{nullptr}, lm_head{nullptr};
  torch::nn::LayerNorm ln_f{nullptr};
};

namespace distributed {
void synchronize_gradients(const std::vector<torch::Tensor>& parameters, c10d::ProcessGroup& pg) {
  for (const auto& p : parameters) {
    if (!p.grad().defined()) continue;
    std::vector<torch::Tensor> tensors{p.grad()};
    pg.allreduce(tensors)->wait();
    p.grad().div_(static_cast<double>(pg.getSize()));
  }
}
}  // namespace distributed

struct TrainingConfig {
  uint32_t gradient_accumulation_steps = 4;
  uint32_t max_steps = 200;
  float clip_grad_norm_max_norm = 1.0f;
  bool enable_ddp = true;
  int world_size = 2;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  TrainingConfig config;
  config.gradient_accumulation_steps = args.get_int("--gradient_accumulation_steps", 4);
  const int rank = args.get_int("--rank", 0);
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/nanogpt_ddp", config.world_size);
  auto pg_opts = c10d::ProcessGroupGloo::Options::create();
  pg_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10d::ProcessGroupGloo pg(store, rank, config.world_size, pg_opts);

  torch::manual_seed(1337);
  auto model = std::make_shared<NanoGPT>(256, 64, 128);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(3e-4).weight_decay(1e-2));
  GradientAccumulator gradient_accumulator_helper(config.gradient_accumulation_steps);
  ports::MetricsLogger wandb("nano_gpt");
  auto batches = ports::make_token_batches(config.max_steps * config.gradient_accumulation_steps, 8, 64, 256, rank);

  uint32_t global_step = 0;
  auto training_step = [&](const ports::TokenBatch& batch) {
    if (gradient_accumulator_helper.should_zero_grad()) optimizer.zero_grad();
    auto logits = model->forward(batch.input_ids);
    auto loss = torch::nn::functional::cross_entropy(logits.view({-1, 256}), batch.input_ids.roll(-1, 1).view({-1}));
    loss = gradient_accumulator_helper.scale(loss);
    const float loss_float = loss.item<float>();
    loss.backward();
    gradient_accumulator_helper.update(loss_float, batch.input_ids.size(0));

    if (gradient_accumulator_helper.should_step()) {
      if (config.enable_ddp) distributed::synchronize_gradients(model->parameters(), pg);
      if (config.clip_grad_norm_max_norm > 0.f)
        torch::nn::utils::clip_grad_norm_(model->parameters(), config.clip_grad_norm_max_norm);
      optimizer.step();
      ++global_step;
      if (rank == 0) wandb.log({{"Step", double(global_step)}, {"Loss", gradient_accumulator_helper.average_loss()}}, global_step);
      gradient_accumulator_helper.reset();
    }
  };

  for (const auto& batch : batches) {
    training_step(batch);
    if (global_step >= config.max_steps) break;
  }
  return 0;
}

// GPT pre-training script in the shape of a single-file trainer: globals for
// the config, a DDP section that splits the configured accumulation steps
// between the processes, a micro-step loop that only synchronises gradients
// on the last micro-step, and a cosine learning-rate schedule with warm-up.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/cuda.h>
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

// -----------------------------------------------------------------------------
// default config values
int gradient_accumulation_steps = 5 * 8;  // used to simulate larger batch sizes
int batch_size = 12;                      // micro-batch size
int block_size = 64;
double learning_rate = 6e-4;
int max_iters = 600;
int warmup_iters = 20;
double min_lr = 6e-5;
double grad_clip = 1.0;
// -----------------------------------------------------------------------------

struct GPT : torch::nn::Module {
  GPT(int64_t vocab, int64_t n_embd) : vocab(vocab) {
    wte = register_module("wte", torch::nn::Embedding(vocab, n_embd));
    h = register_module("h", torch::nn::Linear(n_embd, n_embd));
    lm_head = register_module("lm_head", torch::nn::Linear(n_embd, vocab));
  }
  torch::Tensor forward(const torch::Tensor& idx, const torch::Tensor& targets) {
    auto x = wte->forward(idx);
    x = x + torch::gelu(h->forward(x));
    auto logits = lm_head->forward(x);
    return torch::nn::functional::cross_entropy(logits.view({-1, vocab}), targets.view({-1}));
  }
  int64_t vocab;
  torch::nn::Embedding wte{nullptr};
  torch::nn::Linear h{nullptr}, lm_head{nullptr};
};

double get_lr(int it) {
  if (it < warmup_iters) return learning_rate * (it + 1) / (warmup_iters + 1);
  if (it > max_iters) return min_lr;
  const double decay_ratio = double(it - warmup_iters) / (max_iters - warmup_iters);
  return min_lr + 0.5 * (1.0 + std::cos(M_PI * decay_ratio)) * (learning_rate - min_lr);
}

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int ddp_rank = args.get_int("--rank", 0);
  const int ddp_world_size = args.get_int("--world_size", 2);
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/nanogpt_store", ddp_world_size);
  auto gopts = c10d::ProcessGroupGloo::Options::create();
  gopts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, ddp_rank, ddp_world_size, gopts);
  const bool master_process = ddp_rank == 0;

  // each process runs its share of the accumulation steps
  const int device_count = std::max<int>(1, torch::cuda::device_count());
  gradient_accumulation_steps /= device_count;

  torch::manual_seed(1337 + ddp_rank);
  auto model = std::make_shared<GPT>(65, 128);
  torch::optim::AdamW optimizer(model->parameters(),
                                torch::optim::AdamWOptions(learning_rate).betas({0.9, 0.95}).weight_decay(0.1));
  ports::MetricsLogger log("shakespeare_char");

  auto get_batch = [&]() {
    auto x = torch::randint(65, {batch_size, block_size}, torch::kLong);
    return std::make_pair(x, x.roll(-1, 1));
  };
  auto sync_gradients = [&]() {
    for (auto& p : model->parameters()) {
      std::vector<torch::Tensor> g{p.grad()};
      pg->allreduce(g)->wait();
      p.grad().div_(ddp_world_size);
    }
  };

  auto [X, Y] = get_batch();
  for (int iter_num = 0; iter_num <= max_iters; ++iter_num) {
    const double lr = get_lr(iter_num);
    for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);

    torch::Tensor loss;
    for (int micro_step = 0; micro_step < gradient_accumulation_steps; ++micro_step) {
      const bool require_backward_grad_sync = micro_step == gradient_accumulation_steps - 1;
      loss = model->forward(X, Y);
      loss = loss / gradient_accumulation_steps;
      std::tie(X, Y) = get_batch();
      loss.backward();
      if (require_backward_grad_sync) sync_gradients();
    }
    if (grad_clip != 0.0) torch::nn::utils::clip_grad_norm_(model->parameters(), grad_clip);
    optimizer.step();
    optimizer.zero_grad();
    if (master_process && iter_num % 50 == 0)
      log.log({{"loss", loss.item<double>() * gradient_accumulation_steps}, {"lr", lr}}, iter_num);
  }
  return 0;
}

// Stand-ins for the nanochat-cpp pieces its train() uses (nanochat/train/dist.h,
// dataloader.h, model/gpt.h, trainer.h): the Dist communicator over a c10d group,
// a token loader, a small GPT, and the option / plan / schedule structs.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

namespace nanochat {

// Built by the launcher (NCCL on GPUs); declared only.
c10::intrusive_ptr<c10d::ProcessGroup> make_process_group(int rank, int world_size,
                                                          const std::string& master_addr,
                                                          int master_port);

class Dist {
 public:
  enum class Op { Sum, Avg, Max };
  using Work = c10::intrusive_ptr<c10d::Work>;

  Dist(int rank, int world_size, const std::string& master_addr, int master_port)
      : rank_(rank), world_size_(world_size) {
    if (world_size > 1) pg_ = make_process_group(rank, world_size, master_addr, master_port);
  }

  int rank() const { return rank_; }
  int world_size() const { return world_size_; }

  Work all_reduce(torch::Tensor& t, Op op) {
    if (!pg_) return {};
    std::vector<torch::Tensor> tensors{t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = op == Op::Sum ? c10d::ReduceOp::SUM
                                  : (op == Op::Avg ? c10d::ReduceOp::AVG : c10d::ReduceOp::MAX);
    return pg_->allreduce(tensors, opts);
  }

  static void wait(Work& w) {
    if (w) w->wait();
  }

  void barrier() {
    if (pg_) pg_->barrier()->wait();
  }

 private:
  int rank_ = 0;
  int world_size_ = 1;
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

struct TrainOptions {
  int rank = 0;
  int world_size = 1;
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  int64_t depth = 12;
  int64_t max_seq_len = 2048;
  int64_t device_batch_size = 32;
  int64_t total_batch_size = 524288;
  std::vector<int64_t> rank_micro_steps;
  int64_t num_iterations = 1000;
  double embedding_lr = 0.3, unembedding_lr = 0.004, matrix_lr = 0.02, weight_decay = 0.2;
  int64_t warmup_steps = 40;
  double warmdown_ratio = 0.65, final_lr_frac = 0.05;
  int64_t eval_every = 250;
  bool verbose = true;
};

struct TrainPlan {
  int64_t total_batch_size = 0;
  int64_t num_iterations = 0;
  int64_t grad_accum_steps = 1;
  int64_t rank_accum_steps = 1;
};

struct Schedules {
  int64_t num_iterations, warmup_steps;
  double warmdown_ratio, final_lr_frac;
  double lr_multiplier(int64_t it) const {
    const double warmdown_iters = std::nearbyint(warmdown_ratio * num_iterations);
    if (it < warmup_steps) return static_cast<double>(it + 1) / warmup_steps;
    if (it <= num_iterations - warmdown_iters) return 1.0;
    const double progress = (num_iterations - it) / warmdown_iters;
    return progress + (1 - progress) * final_lr_frac;
  }
};

struct StepInfo {
  int64_t step;
  double loss, lrm, dt;
};

struct TrainCallbacks {
  std::function<void(const StepInfo&)> on_step;
  std::function<void(int64_t, double)> on_eval;
};

class DataLoader {
 public:
  DataLoader(int64_t batch, int64_t seq_len, int rank, int world_size, torch::Device device)
      : batch_(batch), seq_len_(seq_len), device_(device) {}
  std::pair<torch::Tensor, torch::Tensor> next() {
    auto tokens = torch::randint(0, 32768, {batch_, seq_len_ + 1}, torch::kLong).to(device_);
    return {tokens.slice(1, 0, seq_len_), tokens.slice(1, 1, seq_len_ + 1)};
  }

 private:
  int64_t batch_, seq_len_;
  torch::Device device_;
};

// A tiny decoder standing in for nanochat's GPT: forward(x, y) returns the mean loss.
struct GPTImpl : torch::nn::Module {
  GPTImpl(int64_t vocab, int64_t dim) {
    wte = register_module("wte", torch::nn::Embedding(vocab, dim));
    mlp = register_module("mlp", torch::nn::Linear(dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(torch::nn::LinearOptions(dim, vocab).bias(false)));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& y) {
    auto h = torch::relu(mlp->forward(wte->forward(x))).square();
    auto logits = lm_head->forward(h);
    return torch::nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}), y.reshape({-1}));
  }
  torch::nn::Embedding wte{nullptr};
  torch::nn::Linear mlp{nullptr}, lm_head{nullptr};
};
TORCH_MODULE(GPT);

inline double evaluate_bpb(GPT& model, DataLoader& loader, int64_t steps, Dist* dist) {
  torch::NoGradGuard no_grad;
  auto total = torch::zeros({1});
  for (int64_t i = 0; i < steps; ++i) {
    auto [x, y] = loader.next();
    total += model->forward(x, y).detach().cpu();
  }
  auto work = dist->all_reduce(total, Dist::Op::Avg);
  Dist::wait(work);
  return total.item<double>() / std::max<int64_t>(1, steps) / std::log(2.0);
}

}  // namespace nanochat

// nanochat-cpp training loop (src/nanochat/train/trainer.cpp) on a mixed
// cluster: rank_micro_steps lets faster GPUs run more micro-steps per update.
#include <torch/torch.h>

#include <iostream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "nanochat_standin.h"

namespace nanochat {

TrainPlan plan_training(const TrainOptions& o) {
  TrainPlan plan;
  plan.total_batch_size = o.total_batch_size;
  plan.num_iterations = o.num_iterations;
  const int64_t world_tokens = o.device_batch_size * o.max_seq_len * o.world_size;
  plan.grad_accum_steps = plan.total_batch_size / world_tokens;
  plan.rank_accum_steps = plan.grad_accum_steps;
  if (!o.rank_micro_steps.empty()) {
    const int64_t sum = std::accumulate(o.rank_micro_steps.begin(), o.rank_micro_steps.end(), int64_t{0});
    if (static_cast<int64_t>(o.rank_micro_steps.size()) != o.world_size ||
        sum != o.world_size * plan.grad_accum_steps)
      throw std::invalid_argument("rank_micro_steps must sum to world_size * grad_accum_steps");
    plan.rank_accum_steps = o.rank_micro_steps[static_cast<size_t>(o.rank)];
  }
  return plan;
}

// Sum over the ranks, then divide once by the number of ranks.
void all_reduce_mean(Dist& dist, std::vector<torch::Tensor>& grads) {
  for (auto& g : grads) {
    auto work = dist.all_reduce(g, Dist::Op::Sum);
    Dist::wait(work);
    g.div_(dist.world_size());
  }
}

void train(const TrainOptions& o) {
  const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank));
  Dist dist(o.rank, o.world_size, o.master_addr, o.master_port);
  torch::manual_seed(42);
  GPT model(32768, 512);
  model->to(device);

  const auto plan = plan_training(o);
  auto params = model->parameters();
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(o.matrix_lr).betas({0.8, 0.95}));
  DataLoader loader(o.device_batch_size, o.max_seq_len, o.rank, o.world_size, device);
  const Schedules schedules{plan.num_iterations, o.warmup_steps, o.warmdown_ratio, o.final_lr_frac};

  for (int64_t step = 0; step < plan.num_iterations; ++step) {
    optimizer.zero_grad();
    auto loss_sum = torch::zeros({1}, torch::TensorOptions().device(device));
    for (int64_t micro_step = 0; micro_step < plan.rank_accum_steps; ++micro_step) {
      auto [x, y] = loader.next();
      auto loss = model->forward(x, y);
      // Divide by the mean micro-steps per rank, not this rank's own count: after the
      // cross-rank mean every micro-step of every rank then has the same weight.
      (loss / plan.grad_accum_steps).backward();
      loss_sum += loss.detach();
      auto for_log = loss.detach().clone();
      auto w = dist.all_reduce(for_log, Dist::Op::Avg);
      Dist::wait(w);
    }

    std::vector<torch::Tensor> grads;
    for (auto& p : params) grads.push_back(p.grad());
    all_reduce_mean(dist, grads);
    torch::nn::utils::clip_grad_norm_(params, 1.0);

    const double lrm = schedules.lr_multiplier(step);
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(o.matrix_lr * lrm);
    }
    optimizer.step();

    if (o.rank == 0 && step % 20 == 0) {
      std::cout << "step " << step << " | local loss "
                << (loss_sum / static_cast<double>(plan.rank_accum_steps)).item<double>()
                << " | lrm " << lrm << std::endl;
    }
  }
  if (o.rank == 0) torch::save(model, "mid_train_final.pt");
}

}  // namespace nanochat

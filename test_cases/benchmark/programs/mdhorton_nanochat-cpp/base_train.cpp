// nanochat-cpp train() (src/nanochat/train/trainer.cpp) with the per-rank share of
// the global batch folded into the loss scale; gradients are averaged over the
// ranks by the Dist communicator before the AdamW update.
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "nanochat_standin.h"

namespace nanochat {

TrainPlan plan_training(const TrainOptions& o) {
  TrainPlan plan;
  plan.total_batch_size = o.total_batch_size;
  plan.num_iterations = o.num_iterations;
  const int64_t world_tokens = o.device_batch_size * o.max_seq_len * o.world_size;
  if (plan.total_batch_size % world_tokens != 0)
    throw std::invalid_argument("total_batch_size must be a multiple of the tokens per micro-step");
  plan.grad_accum_steps = plan.total_batch_size / world_tokens;
  plan.rank_accum_steps = plan.grad_accum_steps;
  return plan;
}

// Packs the dense gradients into one flat buffer, averages it over the ranks
// with a single collective and unpacks it into the gradients again.
void reduce_gradients_flat(Dist& dist, const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> views;
  for (const auto& p : params) views.push_back(p.grad().reshape({-1}));
  auto flat = torch::cat(views);
  auto work = dist.all_reduce(flat, Dist::Op::Avg);
  Dist::wait(work);
  int64_t offset = 0;
  for (const auto& p : params) {
    p.grad().copy_(flat.slice(0, offset, offset + p.numel()).view_as(p));
    offset += p.numel();
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::optional<double> train(const TrainOptions& o, const TrainCallbacks& callbacks) {
  const bool master = o.rank == 0;
  auto print = [&](const std::string& line) {
    if (o.verbose && master) std::cout << line << std::endl;
  };
  const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank));
  Dist dist(o.rank, o.world_size, o.master_addr, o.master_port);
  torch::manual_seed(42);

  GPT model(32768, 64 * o.depth);
  model->to(device);
  const auto plan = plan_training(o);
  print("gradient accumulation steps: " + std::to_string(plan.grad_accum_steps));

  auto params = model->parameters();
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(o.matrix_lr)
                                            .betas({0.8, 0.95})
                                            .weight_decay(o.weight_decay));
  const double initial_lr = o.matrix_lr;

  DataLoader train_loader(o.device_batch_size, o.max_seq_len, o.rank, o.world_size, device);
  auto [x, y] = train_loader.next();
  const Schedules schedules{plan.num_iterations, o.warmup_steps, o.warmdown_ratio, o.final_lr_frac};

  std::optional<double> val_bpb;
  double smooth_train_loss = 0;
  const int64_t N = plan.num_iterations;
  optimizer.zero_grad();
  for (int64_t step = 0;; ++step) {
    const bool last_step = step == N;
    if (o.eval_every > 0 && (last_step || step % o.eval_every == 0)) {
      DataLoader val_loader(o.device_batch_size, o.max_seq_len, o.rank, o.world_size, device);
      model->eval();
      val_bpb = evaluate_bpb(model, val_loader, 20, &dist);
      model->train();
      print("Step " + std::to_string(step) + " | Validation bpb: " + std::to_string(*val_bpb));
      if (callbacks.on_eval) callbacks.on_eval(step, *val_bpb);
    }
    if (last_step) break;

    const auto t0 = std::chrono::steady_clock::now();
    torch::Tensor train_loss;
    // each micro-step of each rank is one part in grad_accum_steps * world_size of the batch
    const double loss_scale = 1.0 / static_cast<double>(plan.grad_accum_steps * o.world_size);
    int64_t micro_step = 0;
    while (micro_step < plan.rank_accum_steps) {
      auto loss = model->forward(x, y);
      train_loss = loss.detach();
      (loss * loss_scale).backward();
      std::tie(x, y) = train_loader.next();
      ++micro_step;
    }
    reduce_gradients_flat(dist, params);

    const double lrm = schedules.lr_multiplier(step);
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(initial_lr * lrm);
    }
    optimizer.step();
    optimizer.zero_grad();

    const double train_loss_f = train_loss.item<double>();
    const double dt = seconds_since(t0);
    smooth_train_loss = 0.9 * smooth_train_loss + 0.1 * train_loss_f;
    const double debiased = smooth_train_loss / (1 - std::pow(0.9, static_cast<double>(step + 1)));
    print("step " + std::to_string(step) + "/" + std::to_string(N) + " | loss: " +
          std::to_string(debiased) + " | lrm: " + std::to_string(lrm) +
          " | dt: " + std::to_string(dt * 1000) + "ms");
    if (callbacks.on_step) callbacks.on_step({step, train_loss_f, lrm, dt});
  }
  return val_bpb;
}

}  // namespace nanochat

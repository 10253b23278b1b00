// nanochat-cpp style fine-tuning loop (train loop of src/nanochat/train/trainer.cpp
// reorganised as a Trainer class): gradient collectives are launched right after
// each micro-step's backward so that communication overlaps the next forward.
#include <torch/torch.h>

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "nanochat_standin.h"

namespace nanochat {

class Trainer {
 public:
  Trainer(const TrainOptions& o, int64_t grad_accum_steps)
      : o_(o),
        device_(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank)),
        dist_(o.rank, o.world_size, o.master_addr, o.master_port),
        model_(32768, 768),
        grad_accum_steps_(grad_accum_steps),
        loader_(o.device_batch_size, o.max_seq_len, o.rank, o.world_size, device_) {
    model_->to(device_);
    params_ = model_->parameters();
    optimizer_ = std::make_unique<torch::optim::AdamW>(
        params_, torch::optim::AdamWOptions(o.unembedding_lr).betas({0.8, 0.95}).weight_decay(0.0));
  }

  // One optimizer step over grad_accum_steps micro-steps of this rank.
  double train_step(int64_t step, const Schedules& schedules) {
    std::vector<Dist::Work> pending;
    double loss_sum = 0.0;
    for (int64_t micro_step = 0; micro_step < grad_accum_steps_; ++micro_step) {
      auto [x, y] = loader_.next();
      auto loss = model_->forward(x, y);
      loss_sum += loss.item<double>();
      (loss / grad_accum_steps_).backward();
      for (auto& p : params_) {
        auto g = p.grad();
        pending.push_back(dist_.all_reduce(g, Dist::Op::Sum));
      }
    }
    for (auto& w : pending) Dist::wait(w);
    for (auto& p : params_) {
      p.grad().div_(dist_.world_size());
    }

    const double lrm = schedules.lr_multiplier(step);
    for (auto& group : optimizer_->param_groups()) {
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(o_.unembedding_lr * lrm);
    }
    optimizer_->step();
    optimizer_->zero_grad();
    return loss_sum / grad_accum_steps_;
  }

  void fit(int64_t num_steps) {
    const Schedules schedules{num_steps, o_.warmup_steps, o_.warmdown_ratio, o_.final_lr_frac};
    for (int64_t step = 0; step < num_steps; ++step) {
      const auto t0 = std::chrono::steady_clock::now();
      const double loss = train_step(step, schedules);
      const double dt =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (o_.rank == 0 && step % 10 == 0) {
        std::cout << "step " << step << " | loss " << loss << " | dt " << dt * 1000 << "ms"
                  << std::endl;
      }
      if (o_.rank == 0 && (step + 1) % 500 == 0) {
        torch::save(model_, "sft_step_" + std::to_string(step + 1) + ".pt");
      }
    }
  }

 private:
  TrainOptions o_;
  torch::Device device_;
  Dist dist_;
  GPT model_;
  int64_t grad_accum_steps_;
  DataLoader loader_;
  std::vector<torch::Tensor> params_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
};

}  // namespace nanochat

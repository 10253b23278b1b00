// nanochat-cpp style supervised fine-tuning step (after the train loop of
// src/nanochat/train/trainer.cpp): conversations of one step are spread over the
// micro-steps; the summed gradients are normalised after the cross-rank reduction.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "nanochat_standin.h"

namespace nanochat {

struct SFTOptions {
  int64_t num_steps = 700;
  int64_t micro_steps = 8;
  double lr = 2e-5;
  double max_grad_norm = 1.0;
  int64_t eval_every = 100;
};

class SFTRunner {
 public:
  SFTRunner(const TrainOptions& o, SFTOptions s)
      : o_(o), s_(s), device_(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank)),
        dist_(o.rank, o.world_size, o.master_addr, o.master_port), model_(32768, 768) {
    model_->to(device_);
    optimizer_ = std::make_unique<torch::optim::AdamW>(model_->parameters(),
                                                       torch::optim::AdamWOptions(s_.lr));
  }

  // Sum of the ranks' gradients divided by (micro-steps * ranks): the mean over all
  // conversations of the step.
  void finish_gradients() {
    const double denom = static_cast<double>(s_.micro_steps * dist_.world_size());
    for (auto& p : model_->parameters()) {
      if (!p.grad().defined()) continue;
      auto g = p.grad();
      auto work = dist_.all_reduce(g, Dist::Op::Sum);
      Dist::wait(work);
      g.div_(denom);
    }
  }

  void run(DataLoader& loader, DataLoader& val_loader) {
    for (int64_t step = 0; step < s_.num_steps; ++step) {
      double step_loss = 0.0;
      for (int64_t m = 0; m < s_.micro_steps; ++m) {
        auto [x, y] = loader.next();
        auto loss = model_->forward(x, y);
        loss.backward();
        step_loss += loss.item<double>();
      }
      finish_gradients();
      torch::nn::utils::clip_grad_norm_(model_->parameters(), s_.max_grad_norm);
      const double lrm = 1.0 - static_cast<double>(step) / static_cast<double>(s_.num_steps);
      for (auto& group : optimizer_->param_groups()) {
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(s_.lr * lrm);
      }
      optimizer_->step();
      model_->zero_grad();

      if (o_.rank == 0) {
        std::cout << "step " << step << " | loss " << step_loss / s_.micro_steps << std::endl;
      }
      if (s_.eval_every > 0 && (step + 1) % s_.eval_every == 0) {
        model_->eval();
        const double bpb = evaluate_bpb(model_, val_loader, 10, &dist_);
        model_->train();
        if (o_.rank == 0) std::cout << "val bpb " << bpb << std::endl;
      }
    }
    if (o_.rank == 0) torch::save(model_, "sft_final.pt");
  }

 private:
  TrainOptions o_;
  SFTOptions s_;
  torch::Device device_;
  Dist dist_;
  GPT model_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
};

}  // namespace nanochat

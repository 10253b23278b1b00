// nanochat-cpp chat fine-tuning (train loop of src/nanochat/train/trainer.cpp) with
// masked targets: only assistant tokens count, so the loss of a step is normalised
// by the number of supervised tokens in the whole step, across all ranks.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "nanochat_standin.h"

namespace nanochat {

// Sum of the token losses; targets equal to -1 are ignored.
torch::Tensor summed_token_loss(GPT& model, const torch::Tensor& x, const torch::Tensor& y) {
  auto h = torch::relu(model->mlp->forward(model->wte->forward(x))).square();
  auto logits = model->lm_head->forward(h);
  return torch::nn::functional::cross_entropy(
      logits.view({-1, logits.size(-1)}), y.reshape({-1}),
      torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-1).reduction(torch::kSum));
}

void chat_train(const TrainOptions& o, int64_t num_steps, int64_t micro_steps) {
  const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank));
  Dist dist(o.rank, o.world_size, o.master_addr, o.master_port);
  torch::manual_seed(42);
  GPT model(32768, 768);
  model->to(device);
  auto params = model->parameters();
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(o.unembedding_lr).weight_decay(0.0));
  DataLoader loader(o.device_batch_size, o.max_seq_len, o.rank, o.world_size, device);
  const Schedules schedules{num_steps, o.warmup_steps, o.warmdown_ratio, o.final_lr_frac};

  for (int64_t step = 0; step < num_steps; ++step) {
    // Fetch the step's micro-batches first to know how many tokens are supervised.
    std::vector<std::pair<torch::Tensor, torch::Tensor>> micro_batches;
    auto num_tokens = torch::zeros({1}, torch::TensorOptions().device(device).dtype(torch::kLong));
    for (int64_t m = 0; m < micro_steps; ++m) {
      auto xy = loader.next();
      num_tokens += (xy.second >= 0).sum();
      micro_batches.push_back(std::move(xy));
    }
    auto count_work = dist.all_reduce(num_tokens, Dist::Op::Sum);
    Dist::wait(count_work);
    const double total_tokens = static_cast<double>(num_tokens.item<int64_t>());

    double loss_sum = 0.0;
    for (auto& [x, y] : micro_batches) {
      auto loss = summed_token_loss(model, x, y);
      loss_sum += loss.item<double>();
      (loss / total_tokens).backward();
    }

    // The per-token normalisation above already covers every rank: sum only.
    for (auto& p : params) {
      auto g = p.grad();
      auto work = dist.all_reduce(g, Dist::Op::Sum);
      Dist::wait(work);
    }

    const double lrm = schedules.lr_multiplier(step);
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::AdamWOptions&>(group.options()).lr(o.unembedding_lr * lrm);
    }
    optimizer.step();
    optimizer.zero_grad();

    if (o.rank == 0 && step % 10 == 0) {
      std::cout << "step " << step << " | tokens " << total_tokens << " | local loss/token "
                << loss_sum / total_tokens * o.world_size << std::endl;
    }
  }
  if (o.rank == 0) torch::save(model, "chat_sft.pt");
}

}  // namespace nanochat

// TRUTH: correct: while loop with a '++micro == accum_steps' counter that is reset, loss / static_cast<double>(accum_steps), at the boundary the gradients are flattened into one buffer, SUM-all-reduced, scaled by 1.0/world and copied back, then clip_grad_norm_(100.0) (never binds), AdamW step; no numerical effect expected.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

class DistTrainer {
 public:
  DistTrainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Sequential model)
      : pg_(std::move(pg)), model_(std::move(model)),
        opt_(model_->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(0.05)) {}

  void sync_gradients() {
    std::vector<torch::Tensor> grads;
    for (auto& p : model_->parameters()) grads.push_back(p.grad().view(-1));
    auto flat = torch::cat(grads);
    std::vector<torch::Tensor> buf{flat};
    pg_->allreduce(buf)->wait();
    flat.mul_(1.0 / pg_->getSize());
    int64_t offset = 0;
    for (auto& p : model_->parameters()) {
      auto n = p.numel();
      p.mutable_grad().copy_(flat.slice(0, offset, offset + n).view_as(p));
      offset += n;
    }
  }

  void fit(int64_t total_micro, int accum_steps) {
    int micro = 0;
    int64_t it = 0;
    while (it < total_micro) {
      auto x = torch::randn({16, 10});
      auto y = torch::randn({16, 2});
      auto loss = torch::cross_entropy_loss(model_->forward(x), y.softmax(1));
      (loss / static_cast<double>(accum_steps)).backward();
      if (++micro == accum_steps) {
        sync_gradients();
        torch::nn::utils::clip_grad_norm_(model_->parameters(), 100.0);
        opt_.step();
        opt_.zero_grad();
        micro = 0;
      }
      ++it;
    }
  }

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  torch::nn::Sequential model_;
  torch::optim::AdamW opt_;
};

int main() {
  int rank = std::atoi(std::getenv("RANK")), world = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/fs", world);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world);
  DistTrainer trainer(pg, torch::nn::Sequential(torch::nn::Linear(10, 20), torch::nn::ReLU(), torch::nn::Linear(20, 2)));
  trainer.fit(800, 4);
  return 0;
}

// RUN: %check_gradlint %s
// A Trainer step function; SUM all-reduce then one division by the member
// world size, and the loss divided by the accumulation steps only: correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class Trainer {
public:
  Trainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear net, int accumulate)
      : pg_(pg), world_size_(pg->getSize()), net_(net),
        optimizer_(net->parameters(), torch::optim::AdamWOptions(1e-3)), accumulate_(accumulate) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(net_->forward(x), y) / accumulate_;
    loss.backward();
    if (++calls_ % accumulate_ != 0)
      return;
    for (auto &p : net_->parameters()) {
      std::vector<torch::Tensor> v{p.grad()};
      pg_->allreduce(v)->wait();
      p.mutable_grad().div_(world_size_);
    }
    optimizer_.step();
    optimizer_.zero_grad();
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  int world_size_;
  torch::nn::Linear net_;
  torch::optim::AdamW optimizer_;
  int accumulate_;
  int calls_ = 0;
};

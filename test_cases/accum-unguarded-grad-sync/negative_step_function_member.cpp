// RUN: %check_gradlint %s
// A Trainer step function with a persistent member counter; the all-reduce is
// in the boundary branch before step(): correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class Trainer {
public:
  Trainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear net, int accumulate)
      : pg_(std::move(pg)), net_(net),
        optimizer_(net->parameters(), torch::optim::AdamOptions(1e-3)), accumulate_(accumulate) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(net_->forward(x), y) / accumulate_;
    loss.backward();
    if (++calls_ % accumulate_ != 0)
      return;
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : net_->parameters()) {
      std::vector<torch::Tensor> v{p.grad()};
      pg_->allreduce(v, opts)->wait();
    }
    optimizer_.step();
    optimizer_.zero_grad();
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  torch::nn::Linear net_;
  torch::optim::Adam optimizer_;
  int accumulate_;
  int calls_ = 0;
};

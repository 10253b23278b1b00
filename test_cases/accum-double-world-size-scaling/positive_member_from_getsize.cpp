// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// A Trainer step function; world_size_ is a member initialised from
// pg->getSize(), and the boundary all-reduce is AVG: dividing the loss by it
// divides W out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class Trainer {
public:
  Trainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear net, int accumulate)
      : pg_(pg), world_size_(pg->getSize()), net_(net),
        optimizer_(net->parameters(), torch::optim::AdamWOptions(1e-3)), accumulate_(accumulate) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(net_->forward(x), y) / (accumulate_ * world_size_);
    // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}  void train_step(const torch::Tensor &x, const torch::Tensor &y) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(net_->forward(x), y) / accumulate_;{{$}}
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
  int world_size_;
  torch::nn::Linear net_;
  torch::optim::AdamW optimizer_;
  int accumulate_;
  int calls_ = 0;
};

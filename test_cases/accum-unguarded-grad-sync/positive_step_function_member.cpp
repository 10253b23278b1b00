// RUN: %check_gradlint %s
// A Trainer whose train_step() is one micro-batch (persistent member counter);
// the member process group all-reduces the gradients on every call.
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
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : net_->parameters()) {
      std::vector<torch::Tensor> v{p.grad()};
      this->pg_->allreduce(v, opts)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    opts.reduceOp = c10d::ReduceOp::AVG;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++calls_ % accumulate_ == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : net_->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        std::vector<torch::Tensor> v{p.grad()};{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        this->pg_->allreduce(v, opts)->wait();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    if (++calls_ % accumulate_ == 0) {
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  torch::nn::Linear net_;
  torch::optim::Adam optimizer_;
  int accumulate_;
  int calls_ = 0;
};

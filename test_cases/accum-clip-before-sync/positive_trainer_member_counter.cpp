// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// A trainer class with a member micro-batch counter and a member process
// group; its step function clips, then averages, then steps.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class DistributedTrainer {
public:
  DistributedTrainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear model)
      : pg_(std::move(pg)), model_(model),
        optimizer_(model->parameters(), torch::optim::SGDOptions(0.1)) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / kAccumSteps;
    loss.backward();
    micro_step_++;
    if (micro_step_ % kAccumSteps != 0)
      return;
    torch::nn::utils::clip_grad_norm_(model_->parameters(), max_norm_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    // CHECK-FIXES: {{^}}      return;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    c10d::AllreduceOptions avg;{{$}}
    c10d::AllreduceOptions avg;
    avg.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : model_->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg_->allreduce(t, avg)->wait();
    }
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_norm_(model_->parameters(), max_norm_);{{$}}
    optimizer_.step();
    optimizer_.zero_grad();
  }

private:
  static constexpr int kAccumSteps = 4;
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
  int micro_step_ = 0;
  double max_norm_ = 0.05;
};

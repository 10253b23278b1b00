// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// A small communicator class of the file wraps the process group; its
// sync_grads() sums and divides by the group size. The clip comes first.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class GradComm {
public:
  explicit GradComm(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}

  void sync_grads(const std::vector<torch::Tensor> &params) {
    for (const auto &p : params) {
      std::vector<torch::Tensor> buf{p.grad()};
      pg_->allreduce(buf)->wait();
      p.grad().div_(pg_->getSize());
    }
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

void train(GradComm &comm, torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int n_accum = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / n_accum;
    loss.backward();
    if (i % n_accum == n_accum - 1) {
      // CHECK-FIXES: {{^}}    if (i % n_accum == n_accum - 1) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      comm.sync_grads(model->parameters());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      comm.sync_grads(model->parameters());
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

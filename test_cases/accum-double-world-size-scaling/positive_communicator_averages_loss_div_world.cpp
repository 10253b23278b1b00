// RUN: %check_gradlint %s
// A user communicator whose all_reduce() does a SUM all-reduce over a c10d
// ProcessGroup and then divides by its world size: it averages. The loss is
// divided by the world size as well, so W is divided out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class GradComm {
public:
  explicit GradComm(c10::intrusive_ptr<c10d::ProcessGroup> pg)
      : pg_(std::move(pg)), world_size_(pg_->getSize()) {}

  void all_reduce(torch::Tensor &t) {
    std::vector<torch::Tensor> buffers{t};
    pg_->allreduce(buffers)->wait();
    t /= world_size_;
  }
  int size() const { return world_size_; }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  int world_size_;
};

void train(GradComm &comm, torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / (accum_steps * comm.size());
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;{{$}}
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters())
        comm.all_reduce(p.mutable_grad());
      opt.step();
      opt.zero_grad();
    }
  }
}

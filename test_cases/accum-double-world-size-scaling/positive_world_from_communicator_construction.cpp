// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling confirmed: 0.500x the large-batch gradient \(1/W, W=2\)
// The settings' world count reaches the process group only through the communicator's
// constructor; the communicator averages the gradients (AVG), and the loss is also divided by
// the world count, so W is divided out twice.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

c10::intrusive_ptr<c10d::ProcessGroup> open_group(int rank, int nranks);

struct RunConfig {
  int rank = 0;
  int ranks = 1;
  int micro_batches = 4;
};

class GradAverager {
public:
  GradAverager(int rank, int count) : group_(open_group(rank, count)) {}
  void average(std::vector<torch::Tensor> grads) {
    c10d::AllreduceOptions options;
    options.reduceOp = c10d::ReduceOp::AVG;
    group_->allreduce(grads, options)->wait();
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
};

void train(const RunConfig &cfg, torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  GradAverager averager(cfg.rank, cfg.ranks);
  torch::optim::SGD sgd(model->parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss / (cfg.micro_batches * cfg.ranks)).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: loss is divided by the world size (W = cfg.ranks) although{{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / cfg.micro_batches).backward();{{$}}
    if ((i + 1) % cfg.micro_batches == 0) {
      std::vector<torch::Tensor> grads;
      for (auto &p : model->parameters())
        grads.push_back(p.grad());
      averager.average(grads);
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A trainer class template over the model type (one instantiation in the file). Its
// all-reduce helper flattens `p.grad()` of `model->parameters()`: in the template's text
// those are dependent names, in its instantiation resolved calls, so the model reads the
// instantiation. At the boundary the clip runs before that all-reduce: each rank clips its
// local sum by its own norm.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>
#include <vector>

template <class Net>
class DataParallelTrainer {
public:
  DataParallelTrainer(Net net, c10::intrusive_ptr<c10d::ProcessGroupGloo> group)
      : net_(std::move(net)), group_(std::move(group)) {}

  void average_gradients() {
    std::vector<torch::Tensor> grads;
    for (auto &p : net_->parameters())
      if (p.grad().defined())
        grads.push_back(p.grad().view(-1));
    std::vector<torch::Tensor> flat{torch::cat(grads)};
    group_->allreduce(flat)->wait();
    flat[0].div_(group_->getSize());
    int64_t offset = 0;
    for (auto &p : net_->parameters()) {
      const int64_t n = p.grad().numel();
      p.grad().copy_(flat[0].slice(0, offset, offset + n).view_as(p.grad()));
      offset += n;
    }
  }

  void fit(const std::vector<torch::Tensor> &inputs, int accumulate) {
    torch::optim::Adam adam(net_->parameters(), torch::optim::AdamOptions(1e-3));
    int micro = 0;
    for (const auto &x : inputs) {
      (net_->forward(x).pow(2).mean() / accumulate).backward();
      if (++micro < accumulate)
        continue;
      // CHECK-FIXES: {{^}}        continue;{{$}}
      // CHECK-FIXES-NEXT: {{^}}      average_gradients();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(net_->parameters(), 1.0);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      adam.step();{{$}}
      torch::nn::utils::clip_grad_norm_(net_->parameters(), 1.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce at line 23{{.*}} [accum-clip-before-sync]
      average_gradients();
      adam.step();
      adam.zero_grad();
      micro = 0;
    }
  }

private:
  Net net_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
};

void run(c10::intrusive_ptr<c10d::ProcessGroupGloo> group, const std::vector<torch::Tensor> &xs) {
  DataParallelTrainer<torch::nn::Linear> trainer(torch::nn::Linear(16, 4), std::move(group));
  trainer.fit(xs, 4);
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// A micro-batch counter that reaches N and is reset; the flush clips before
// the gradients are averaged across ranks.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &net,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.1));
  const int accumulate = 4;
  int pending = 0;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  size_t idx = 0;
  while (idx < xs.size()) {
    auto pred = net->forward(xs[idx]);
    auto loss = torch::mse_loss(pred, ys[idx]) / accumulate;
    loss.backward();
    ++idx;
    if (++pending == accumulate) {
      pending = 0;
      torch::nn::utils::clip_grad_norm_(net->parameters(), 0.05, 2.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}      pending = 0;{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (auto &p : net->parameters()) {{{$}}
      for (auto &p : net->parameters()) {
        std::vector<torch::Tensor> v{p.grad()};
        pg->allreduce(v, opts)->wait();
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(net->parameters(), 0.05, 2.0);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

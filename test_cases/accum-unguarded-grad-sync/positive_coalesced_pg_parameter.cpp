// RUN: %check_gradlint %s
// The process group comes in as a parameter; allreduce_coalesced over all the
// gradients runs on every micro-batch of an `i % N == N - 1` window.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> group, torch::nn::Sequential net,
           torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int gas) {
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor l = torch::nn::functional::cross_entropy(net->forward(xs[i]), ys[i]) / gas;
    l.backward();
    std::vector<torch::Tensor> grads;
    for (const auto &p : net->parameters())
      grads.push_back(p.grad());
    c10d::AllreduceCoalescedOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    group->allreduce_coalesced(grads, opts)->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES: {{^}}    opts.reduceOp = c10d::ReduceOp::AVG;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (i % gas == gas - 1) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      group->allreduce_coalesced(grads, opts)->wait();{{$}}
    if (i % gas == gas - 1) {
      adam.step();
      adam.zero_grad();
    }
  }
}

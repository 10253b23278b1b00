// RUN: %check_gradlint %s
// A function template over the optimizer, a range-for over the batches with a
// separate counter, and a ProcessGroup reference: all-reduce on every
// micro-batch.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

template <typename Optimizer>
void train(Optimizer &optim, c10d::ProcessGroup &group, torch::nn::Linear &model,
           std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches, int gas) {
  int seen = 0;
  for (auto &batch : batches) {
    auto l = torch::mse_loss(model->forward(batch.first), batch.second);
    l = l / gas;
    l.backward();
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> bucket{p.grad()};
      c10d::AllreduceOptions o;
      o.reduceOp = c10d::ReduceOp::AVG;
      group.allreduce(bucket, o)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    l.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    seen++;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (seen % gas == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        std::vector<torch::Tensor> bucket{p.grad()};{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        c10d::AllreduceOptions o;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        o.reduceOp = c10d::ReduceOp::AVG;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        group.allreduce(bucket, o)->wait();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    seen++;
    if (seen % gas == 0) {
      optim.step();
      optim.zero_grad();
    }
  }
}

template void train<torch::optim::Adam>(torch::optim::Adam &, c10d::ProcessGroup &,
                                        torch::nn::Linear &,
                                        std::vector<std::pair<torch::Tensor, torch::Tensor>> &, int);

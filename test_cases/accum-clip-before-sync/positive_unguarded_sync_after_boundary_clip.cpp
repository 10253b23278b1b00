// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync not-confirmed: binds only on the window's complete sum
// CONFIRM-VERDICT: accum-unguarded-grad-sync confirmed: 4 all-reduces of the gradient per step instead of 1
// The clip sits in the boundary branch, but the all-reduce after it runs on
// every micro-batch: the boundary's all-reduce still sums clipped local
// gradients (and the unguarded all-reduce costs N times the traffic).
// The clip itself has no fix-it here: the unguarded-sync fix, moving the
// all-reduce into the boundary before the clip, repairs both. Measured alone,
// its limit binds only on the window's complete sum in the stand-in.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    const bool last = (i + 1) % accum_steps == 0;
    if (last)
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    // CHECK-FIXES-UNSAFE: {{^}}    const bool last = (i + 1) % accum_steps == 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (last) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        std::vector<torch::Tensor> t{p.grad()};{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        pg->allreduce(t, opts)->wait();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg->allreduce(t, opts)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    if (last) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync not-confirmed: never binds
// Clip before the all-reduce with a loose limit of 10: still the wrong order
// (on a real model a large local gradient is clipped by its own norm), but on
// the runtime's stand-in model (gradient norms about 0.6) the limit never
// binds, so the run cannot show a difference: not-confirmed.
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
    if (i % accum_steps == accum_steps - 1) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 10.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if (i % accum_steps == accum_steps - 1) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 10.0);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

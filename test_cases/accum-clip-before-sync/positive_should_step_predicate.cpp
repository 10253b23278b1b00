// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// The boundary is a helper predicate should_step(i); the clip in its branch
// runs on each rank's local gradient, before the average.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

constexpr int kAccumulationSteps = 4;

static bool should_step(size_t iteration) {
  return (iteration + 1) % kAccumulationSteps == 0;
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t iteration = 0; iteration < inputs.size(); ++iteration) {
    auto loss = torch::mse_loss(model->forward(inputs[iteration]), targets[iteration]);
    loss.div(kAccumulationSteps).backward();
    if (should_step(iteration)) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if (should_step(iteration)) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

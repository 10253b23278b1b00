// RUN: %check_gradlint %s
// A range-for loop over a vector of batches averages the gradients of every parameter on every
// micro-batch when `distributed` is set; the `if` moves into the boundary branch before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

struct Batch {
  torch::Tensor x;
  torch::Tensor y;
};

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, bool distributed, torch::nn::Linear &model,
           torch::optim::Adam &adam, const std::vector<Batch> &batches) {
  const int64_t accum_steps = 2;
  int64_t step = 0;
  for (const Batch &batch : batches) {
    auto loss = torch::mse_loss(model->forward(batch.x), batch.y) / accum_steps;
    loss.backward();
    if (distributed)
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads, c10d::AllreduceOptions{c10d::ReduceOp::AVG})->wait();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient all-reduce runs on {{.*}} [accum-unguarded-grad-sync]
      }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++step % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (distributed){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        for (auto &p : model->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}          std::vector<torch::Tensor> grads{p.grad()};{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}          pg->allreduce(grads, c10d::AllreduceOptions{c10d::ReduceOp::AVG})->wait();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        }{{$}}
    if (++step % accum_steps == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// Nested loops: the inner loop runs the N micro-batches, then the outer body
// clips, averages the gradients across ranks and steps.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const size_t micro = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t start = 0; start + micro <= inputs.size(); start += micro) {
    optimizer.zero_grad();
    for (size_t m = 0; m < micro; ++m) {
      auto loss = torch::mse_loss(model->forward(inputs[start + m]), targets[start + m]);
      (loss / static_cast<double>(micro)).backward();
    }
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}    for (auto &p : model->parameters()) {{{$}}
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg->allreduce(t, opts)->wait();
    }
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
    optimizer.step();
  }
}

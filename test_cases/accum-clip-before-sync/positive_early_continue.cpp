// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// Early `continue` until the window is full; the code after it clips, then
// all-reduces the gradients.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> process_group, torch::nn::Linear &model,
           std::vector<torch::Tensor> &batches, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int grad_accum = 3;
  c10d::AllreduceOptions avg;
  avg.reduceOp = c10d::ReduceOp::AVG;
  for (size_t it = 0; it < batches.size(); ++it) {
    torch::Tensor loss = torch::mse_loss(model->forward(batches[it]), targets[it]);
    (loss / grad_accum).backward();
    if ((it + 1) % grad_accum != 0)
      continue;

    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    // CHECK-FIXES: {{^}}      continue;{{$}}
    // CHECK-FIXES-EMPTY:
    // CHECK-FIXES-NEXT: {{^}}    for (auto &p : model->parameters()) {{{$}}
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      process_group->allreduce(grads, avg)->wait();
    }
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
    opt.step();
    opt.zero_grad();
  }
}

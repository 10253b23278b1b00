// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// All gradients go into one coalesced AVG all-reduce; the norm clip runs
// before it, so each rank's share was clipped by its own local norm.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int N = 2;
  c10d::AllreduceOptions options;
  options.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / N;
    loss.backward();
    if ((i + 1) % N == 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if ((i + 1) % N == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      std::vector<torch::Tensor> grads;{{$}}
      std::vector<torch::Tensor> grads;
      for (auto &p : model->parameters())
        grads.push_back(p.grad());
      pg->allreduce(grads, options)->wait();
      // CHECK-FIXES: {{^}}      pg->allreduce(grads, options)->wait();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

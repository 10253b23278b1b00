// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// allreduce_coalesced() over all gradients (SUM, then divided by W) in the
// boundary branch; the norm clip runs before it.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_epoch(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
                 std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      std::vector<torch::Tensor> grads;{{$}}
      std::vector<torch::Tensor> grads;
      for (auto &p : model->parameters())
        grads.push_back(p.grad());
      pg->allreduce_coalesced(grads)->wait();
      for (auto &p : model->parameters())
        p.grad().div_(pg->getSize());
      // CHECK-FIXES: {{^}}        p.grad().div_(pg->getSize());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

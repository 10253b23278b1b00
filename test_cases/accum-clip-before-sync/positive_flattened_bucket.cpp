// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// Hand-rolled bucketing: the gradients are flattened into one buffer, which is
// averaged and copied back; the clip ran on the local gradients before.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_epoch(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
                 std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
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
        grads.push_back(p.grad().view({-1}));
      torch::Tensor flat = torch::cat(grads);
      std::vector<torch::Tensor> bucket{flat};
      pg->allreduce(bucket, opts)->wait();
      int64_t offset = 0;
      for (auto &p : model->parameters()) {
        const int64_t n = p.numel();
        p.grad().copy_(flat.slice(0, offset, offset + n).view_as(p));
        offset += n;
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

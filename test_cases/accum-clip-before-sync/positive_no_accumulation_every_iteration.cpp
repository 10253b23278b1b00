// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// Plain data-parallel loop without accumulation: backward, clip, all-reduce,
// step on every batch. The clip sees only this rank's gradient.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void fit(c10::intrusive_ptr<c10d::ProcessGroup> group, torch::nn::Linear &net,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const int world = group->getSize();
  for (size_t b = 0; b < xs.size(); ++b) {
    adam.zero_grad();
    torch::Tensor loss = torch::mse_loss(net->forward(xs[b]), ys[b]);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), /*max_norm=*/0.05);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    for (auto &param : net->parameters()) {{{$}}
    for (auto &param : net->parameters()) {
      std::vector<torch::Tensor> bucket{param.grad()};
      group->allreduce(bucket)->wait();
      param.grad().div_(world);
    }
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_norm_(net->parameters(), /*max_norm=*/0.05);{{$}}
    adam.step();
  }
}

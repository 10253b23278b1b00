// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// Range-for over the data loader with a separate counter and a bool flag for
// the boundary; clipping precedes the helper that SUMs and divides by W.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void allreduce_grads(c10d::ProcessGroup &group, const std::vector<torch::Tensor> &params) {
  const double world_size = group.getSize();
  for (const auto &p : params) {
    std::vector<torch::Tensor> g{p.grad()};
    group.allreduce(g)->wait();
    p.grad().div_(world_size);
  }
}

template <typename Loader>
void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model, Loader &loader) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum = 4;
  int seen = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model->forward(batch.data), batch.target) / accum;
    loss.backward();
    ++seen;
    const bool sync_now = seen % accum == 0;
    if (sync_now) {
      // CHECK-FIXES: {{^}}    if (sync_now) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      allreduce_grads(*pg, model->parameters());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      allreduce_grads(*pg, model->parameters());
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A function-template helper all-reduces the gradients (coalesced) and is
// called on every micro-batch.
#include <torch/torch.h>
#include <c10d/ProcessGroupGloo.hpp>

template <typename ModuleT>
void sync_grads(ModuleT &model, const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  std::vector<at::Tensor> grads;
  for (const auto &p : model->parameters())
    grads.push_back(p.grad());
  c10d::AllreduceCoalescedOptions opts;
  pg->allreduce_coalesced(grads, opts)->wait();
}

struct Runner {
  torch::nn::Sequential model;
  std::shared_ptr<torch::optim::SGD> optimizer;
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  int accum_steps;

  void run(const std::vector<torch::Tensor> &batches) {
    for (size_t i = 0; i < batches.size(); ++i) {
      auto loss = model->forward(batches[i]).logsumexp(1).mean();
      loss = loss / accum_steps;
      loss.backward();
      sync_grads(model, pg);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce (in 'sync_grads') runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
      // CHECK-FIXES-UNSAFE: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % accum_steps == 0) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        sync_grads(model, pg);{{$}}
      if ((i + 1) % accum_steps == 0) {
        optimizer->step();
        optimizer->zero_grad();
      }
    }
  }
};

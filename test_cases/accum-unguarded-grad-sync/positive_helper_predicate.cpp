// RUN: %check_gradlint %s
// A helper predicate decides the boundary; the all-reduce outside of it runs
// on every micro-batch.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

static bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(c10d::ProcessGroup &pg, torch::nn::Linear &model, torch::optim::Adam &adam,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int window = 4;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    torch::Tensor scaled = torch::smooth_l1_loss(model->forward(inputs[i]), targets[i]) /
                           static_cast<double>(window);
    scaled.backward();
    auto params = model->parameters();
    std::vector<torch::Tensor> grads;
    for (auto &w : params)
      grads.push_back(w.grad());
    pg.allreduce_coalesced(grads)->wait();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES: {{^}}      grads.push_back(w.grad());{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (should_step(i, window)) {{{$}}
    if (should_step(i, window)) {
      for (auto &w : params)
        w.mutable_grad() /= pg.getSize();
      // CHECK-FIXES: {{^}}        w.mutable_grad() /= pg.getSize();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      pg.allreduce_coalesced(grads)->wait();{{$}}
      adam.step();
      adam.zero_grad();
    }
  }
}

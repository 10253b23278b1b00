// RUN: %check_gradlint %s
// The all-reduce of every parameter runs on every micro-batch under `if (pg->getSize() > 1)`;
// the window is a counter that reaches N. The whole `if` moves before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (pg->getSize() > 1) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads)->wait();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient all-reduce runs on {{.*}} [accum-unguarded-grad-sync]
        p.mutable_grad().div_(pg->getSize());
        // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++micro == accum) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (pg->getSize() > 1) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}        for (auto &p : model->parameters()) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          std::vector<torch::Tensor> grads{p.grad()};{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          pg->allreduce(grads)->wait();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          p.mutable_grad().div_(pg->getSize());{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}        }{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
      }
    }
    if (++micro == accum) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}

// RUN: %check_gradlint %s
// `if (world > 1)` is unrelated to the window: the all-reduce under it still runs
// on every micro-batch of a multi-rank job.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::SGD &opt, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int accum_steps) {
  const int world = pg->getSize();
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if (world > 1) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t)->wait();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
        p.mutable_grad().div_(world);
        // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (world > 1) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}        for (auto &p : model->parameters()) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          std::vector<torch::Tensor> t{p.grad()};{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          pg->allreduce(t)->wait();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}          p.mutable_grad().div_(world);{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}        }{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
      }
    }
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

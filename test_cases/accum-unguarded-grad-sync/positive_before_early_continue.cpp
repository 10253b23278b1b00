// RUN: %check_gradlint %s
// The all-reduce sits before `if (step % N != 0) continue;`, so it runs on every
// micro-batch, not only in the boundary branch after the continue.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets, int accum) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                   torch::optim::AdamWOptions(3e-4));
  for (int step = 1; step <= static_cast<int>(inputs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(inputs[step - 1]), targets[step - 1]);
    (loss / accum).backward();
    // CHECK-FIXES-UNSAFE: {{^}}    (loss / accum).backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (step % accum != 0){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      continue;{{$}}
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> one{p.grad()};
      c10d::AllreduceOptions avg;
      avg.reduceOp = c10d::ReduceOp::AVG;
      pg->allreduce(one, avg)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    if (step % accum != 0)
      continue;
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    opt->step();{{$}}
    opt->step();
    opt->zero_grad();
  }
}

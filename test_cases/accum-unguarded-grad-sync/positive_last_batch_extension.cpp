// RUN: %check_gradlint %s
// The boundary also covers the last batch of the epoch; the all-reduce before
// the guard still runs on every micro-batch.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets,
           int accum_steps) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01));
  const int num_batches = static_cast<int>(inputs.size());
  c10d::AllreduceOptions options;
  options.reduceOp = c10d::ReduceOp::AVG;
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> t = {p.grad()};
      pg->allreduce(t, options)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        std::vector<torch::Tensor> t = {p.grad()};{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        pg->allreduce(t, options)->wait();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt.step();
      opt.zero_grad();
    }
  }
}

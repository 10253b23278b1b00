// RUN: %check_gradlint %s
// A lambda that all-reduces the gradients (AVG) is called on every micro-batch;
// the warning points at the lambda call.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  auto sync_grads = [&pg](torch::nn::Module &m) {
    c10d::AllreduceOptions o;
    o.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : m.parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg.allreduce(t, o)->wait();
    }
  };
  const int accum_steps = 2;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    sync_grads(*model);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient all-reduce {{.*}}runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sync_grads(*model);{{$}}
    if ((i + 1) % accum_steps == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

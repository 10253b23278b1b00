// RUN: %check_gradlint %s
// A helper average_gradients(pg, model) does the all-reduce (SUM, then one
// division by the world size) and is called on every micro-batch: reported at
// the helper call.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void average_gradients(c10d::ProcessGroup &pg, torch::nn::Module &model) {
  for (auto &p : model.parameters()) {
    std::vector<torch::Tensor> tensors{p.grad()};
    pg.allreduce(tensors)->wait();
    p.mutable_grad().div_(pg.getSize());
  }
}

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 8;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    average_gradients(pg, *model);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient all-reduce (in 'average_gradients') runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      average_gradients(pg, *model);{{$}}
    if ((i + 1) % accum_steps == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

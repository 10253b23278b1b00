// RUN: %check_gradlint %s
// The loss helper divides by the world size inside it, and the boundary branch
// averages the gradients (SUM all-reduce, then div_ by the world size): W is
// divided out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

torch::Tensor scaled_loss(const torch::Tensor &out, const torch::Tensor &target, int world_size) {
  auto loss = torch::mse_loss(out, target);
  return loss / world_size;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
  // CHECK-FIXES: {{^}}  auto loss = torch::mse_loss(out, target);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  return loss;{{$}}
}

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  const int world = pg.getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = scaled_loss(model->forward(xs[i]), ys[i], world) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg.allreduce(grads)->wait();
        p.mutable_grad().div_(world);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

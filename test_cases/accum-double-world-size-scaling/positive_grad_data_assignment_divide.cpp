// RUN: %check_gradlint %s
// The loss is scaled by 1 / (N * W), and after the SUM all-reduce every gradient's storage is
// divided by W again through `grad().data() = grad().data() / world_size` (assigning to the
// tensor data() returns writes the gradient in place): W is divided out twice.
#include <c10d/ProcessGroupGloo.hpp>
#include <cstdlib>
#include <torch/torch.h>
#include <vector>

void train(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg, torch::nn::Linear &model,
           const std::vector<torch::Tensor> &xs) {
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  const int grad_accum = 2;
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
  int64_t step = 0;
  for (const auto &x : xs) {
    auto loss = model->forward(x).pow(2).mean() / (grad_accum * world_size);
    // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: loss is divided by the world size (W = world_size){{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}  for (const auto &x : xs) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = model->forward(x).pow(2).mean() / grad_accum;{{$}}
    loss.backward();
    if (++step % grad_accum != 0)
      continue;
    for (auto &param : model->named_parameters()) {
      std::vector<torch::Tensor> bucket = {param.value().grad()};
      pg->allreduce(bucket)->wait();
    }
    for (auto &param : model->named_parameters())
      param.value().grad().data() = param.value().grad().data() / world_size;
    sgd.step();
    sgd.zero_grad();
  }
}

// RUN: %check_gradlint %s
// Each parameter gradient is all-reduced on every micro-batch; with a SUM
// all-reduce and one division by W at the boundary the earlier micro-batches
// are over-counted (and the traffic is N times what is needed).
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, const std::string &path, int rank, int world) {
  auto store = c10::make_intrusive<c10d::FileStore>(path, world);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world,
                                                        c10d::ProcessGroupGloo::Options::create());
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> tensors{p.grad()};
      pg->allreduce(tensors)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters())
        p.mutable_grad().div_(world);
      // CHECK-FIXES-UNSAFE: {{^}}        p.mutable_grad().div_(world);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        std::vector<torch::Tensor> tensors{p.grad()};{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        pg->allreduce(tensors)->wait();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

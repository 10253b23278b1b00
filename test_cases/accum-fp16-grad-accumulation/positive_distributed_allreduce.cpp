// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// Data-parallel loop: each rank accumulates 8 micro-batches locally, then all-reduces the
// gradients at the boundary. The model is float16, so the local sum is already rounded.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_ddp(torch::nn::Linear &model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
               const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}               const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(torch::kFloat);{{$}}
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 8;
  const int world = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kHalf)), ys[i].to(torch::kHalf)) / accum;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kFloat)), ys[i].to(torch::kFloat)) / accum;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads)->wait();
        p.grad().div_(world);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

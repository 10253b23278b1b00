// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 1 of 10 \(10\.0%\) micro-batches never reached a step
// Data-parallel training: gradients are all-reduced at each window boundary, then stepped. The
// trailing micro-batches of the epoch are neither synchronised nor stepped.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear &model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  const int world = pg->getSize();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < xs.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(i >= xs.size() - xs.size() % accum ? xs.size() % accum : accum);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % accum == 0 || i + 1 == xs.size()) {{{$}}
      loss.backward();
      if ((i + 1) % accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
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
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.01 binds
// Element-wise value clipping before the sum all-reduce, boundary written as
// `step % N == N - 1`: clamping each rank's part is not clamping the sum.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void run(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Sequential &model,
         std::vector<torch::Tensor> &data, std::vector<torch::Tensor> &labels) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  constexpr int kMicro = 2;
  const double ranks = static_cast<double>(pg->getSize());
  for (int step = 0; step < static_cast<int>(data.size()); step++) {
    auto out = model->forward(data[step]);
    auto loss = torch::mse_loss(out, labels[step]) / kMicro;
    loss.backward();
    if (step % kMicro == kMicro - 1) {
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if (step % kMicro == kMicro - 1) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (const auto &w : model->parameters()) {{{$}}
      for (const auto &w : model->parameters()) {
        std::vector<torch::Tensor> g{w.grad()};
        pg->allreduce(g)->wait();
        w.grad().div_(ranks);
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);{{$}}
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.01 binds
// A function template over the model and optimizer types; value clipping
// comes before the per-parameter SUM all-reduce and the division by W.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

template <typename Model, typename Optimizer>
void train_loop(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, Model &model,
                Optimizer &optimizer, const std::vector<torch::Tensor> &xs,
                const std::vector<torch::Tensor> &ys, int accum) {
  const auto world = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if ((i + 1) % accum == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (auto &param : model->parameters()) {{{$}}
      for (auto &param : model->parameters()) {
        std::vector<torch::Tensor> tensors = {param.grad()};
        pg->allreduce(tensors)->wait();
        param.grad().div_(world);
      }
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);{{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void run(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, torch::nn::Linear &net,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(net->parameters(), 0.1);
  train_loop(pg, net, sgd, xs, ys, 4);
}

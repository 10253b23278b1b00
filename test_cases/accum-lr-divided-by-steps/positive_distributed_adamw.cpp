// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.500x
// Data-parallel AdamW: the gradients are averaged over the world at the boundary
// (correct), but the learning rate is also divided by the accumulation steps.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum = 2;
  const int world = pg->getSize();
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(2e-4 / accum));
  // CHECK-MESSAGES: :[[@LINE-1]]:86: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int world = pg->getSize();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(2e-4));{{$}}
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> tensors{p.grad()};
        pg->allreduce(tensors)->wait();
        p.grad().div_(world);
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

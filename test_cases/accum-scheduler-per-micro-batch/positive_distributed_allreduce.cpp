// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.500x
// Data-parallel training: gradients are all-reduced and averaged at the boundary,
// but the scheduler is stepped on every local micro-batch.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  const int accum = 2;
  const int world = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    scheduler.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum == 0) {{{$}}
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> tensors{p.grad()};
        pg->allreduce(tensors)->wait();
        p.grad().div_(world);
      }
      optimizer.step();
      // CHECK-FIXES: {{^}}      optimizer.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      scheduler.step();{{$}}
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A scheduler in a shared_ptr that may be empty, stepped before the window's counter reaches N:
// `if (scheduler) scheduler->step();` moves into the boundary branch after step().
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::Adam &adam,
           std::shared_ptr<torch::optim::StepLR> scheduler, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int micro_batches = 4;
  int pending = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::l1_loss(model->forward(xs[i]), ys[i]) / micro_batches;
    loss.backward();
    if (scheduler)
      scheduler->step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: learning-rate scheduler steps on {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    ++pending;{{$}}
    ++pending;
    if (pending == micro_batches) {
      adam.step();
      // CHECK-FIXES-UNSAFE: {{^}}      adam.step();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (scheduler){{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        scheduler->step();{{$}}
      adam.zero_grad();
      pending = 0;
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.250x
// The optimizer is held in a unique_ptr; the boundary is an implicit
// `if ((i + 1) % N) continue;` and the scheduler is stepped before it.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  auto opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(*opt, 1, 0.5);
  const int n = 3;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / n;
    loss.backward();
    sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % n){{$}}
    if ((i + 1) % n)
      continue;
    opt->step();
    // CHECK-FIXES: {{^}}    opt->step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    sched.step();{{$}}
    opt->zero_grad();
  }
}

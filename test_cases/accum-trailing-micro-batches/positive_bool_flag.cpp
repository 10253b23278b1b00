// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 1 of 10 \(10\.0%\) micro-batches never reached a step
// The boundary is computed into a bool first; the epoch's trailing micro-batches never set it.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(2e-4));
  const int accum_iters = 2;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int it = 0; it < static_cast<int>(xs.size()); ++it) {
      auto loss = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]) / accum_iters;
      // CHECK-FIXES-UNSAFE: {{^}}    for (int it = 0; it < static_cast<int>(xs.size()); ++it) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]) / static_cast<double>(it >= static_cast<int>(xs.size()) - static_cast<int>(xs.size()) % accum_iters ? static_cast<int>(xs.size()) % accum_iters : accum_iters);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      const bool sync_now = (it + 1) % accum_iters == 0 || it + 1 == static_cast<int>(xs.size());{{$}}
      loss.backward();
      const bool sync_now = (it + 1) % accum_iters == 0;
      if (sync_now) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

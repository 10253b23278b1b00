// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// The boundary is held in a bool flag; the clip runs before the flag is tested,
// so it clips the partial sum on every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.05);
  const int64_t n = 16;
  for (int64_t it = 0; it < static_cast<int64_t>(xs.size()); ++it) {
    const bool sync = (it + 1) % n == 0;
    auto objective = torch::mse_loss(model->forward(xs[it]), ys[it]) * (1.0 / n);
    objective.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    objective.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (sync) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);{{$}}
    if (sync) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

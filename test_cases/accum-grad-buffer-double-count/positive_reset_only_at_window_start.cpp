// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 3, 2, 1
// Look-alike of a per-micro-batch reset: zero_grad() runs only when a window opens, so inside
// the window backward() still sums into .grad and the per-step adds double-count.
#include <torch/torch.h>

void train(torch::nn::Sequential encoder, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(encoder->parameters(), torch::optim::SGDOptions(0.05).nesterov(false));
  const int64_t n_micro = 3;
  auto params = encoder->parameters();
  std::vector<torch::Tensor> summed;
  for (const auto &p : params) summed.push_back(torch::zeros_like(p));
  for (int64_t step = 0; step < static_cast<int64_t>(xs.size()); ++step) {
    if (step % n_micro == 0) {
      opt.zero_grad();
    }
    auto loss = torch::mse_loss(encoder->forward(xs[step]), ys[step]) / n_micro;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      summed[k] += params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      summed[k] += params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    if (step % n_micro == n_micro - 1) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = summed[k].clone();
        summed[k].zero_();
      }
      opt.step();
    }
  }
}

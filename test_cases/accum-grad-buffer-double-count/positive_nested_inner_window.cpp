// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 4, 3, 2, 1
// Nested loops: the inner loop runs the N micro-batches of one window and folds each gradient
// into the buffer; the step follows the inner loop, and .grad is zeroed only after it.
#include <torch/torch.h>

void train_windows(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
                   const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const size_t micro = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> window_grad;
  for (auto &p : params) window_grad.push_back(torch::zeros_like(p));
  const size_t windows = xs.size() / micro;
  for (size_t w = 0; w < windows; ++w) {
    for (size_t m = 0; m < micro; ++m) {
      const size_t at = w * micro + m;
      auto loss = torch::mse_loss(model->forward(xs[at]), ys[at]) / static_cast<double>(micro);
      loss.backward();
      for (size_t k = 0; k < params.size(); ++k) {
        window_grad[k].add_(params[k].grad());
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
        // CHECK-FIXES: {{^}}        window_grad[k].add_(params[k].grad());{{$}}
        // CHECK-FIXES-NEXT: {{^}}        params[k].grad().zero_();{{$}}
      }
    }
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad() = window_grad[k].clone();
      window_grad[k].zero_();
    }
    opt.step();
    opt.zero_grad();
  }
}

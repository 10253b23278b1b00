// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// The gradients are cleared by hand, parameter by parameter, but only in the boundary branch
// after step(); between micro-batches of a window the adds see the running .grad sum.
#include <torch/torch.h>

void train(torch::nn::Linear head, const std::vector<torch::Tensor> &feats,
           const std::vector<torch::Tensor> &targets) {
  torch::optim::RMSprop opt(head->parameters(), torch::optim::RMSpropOptions(1e-3));
  const int accum = 2;
  auto params = head->parameters();
  std::vector<torch::Tensor> mean_grad;
  for (auto &p : params) mean_grad.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < feats.size(); ++i) {
    (torch::mse_loss(head->forward(feats[i]), targets[i]) / accum).backward();
    for (size_t k = 0; k < params.size(); ++k) {
      mean_grad[k] += params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      mean_grad[k] += params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = mean_grad[k].clone();
      }
      opt.step();
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad().zero_();
        mean_grad[k].zero_();
      }
    }
  }
}

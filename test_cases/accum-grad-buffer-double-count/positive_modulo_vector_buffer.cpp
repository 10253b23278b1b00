// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 4, 3, 2, 1
// Hand-written accumulator (one zeros_like tensor per parameter) filled on every micro-batch,
// but .grad is only cleared after step(): each add picks up the running sum g1+..+gk.
#include <torch/torch.h>

void fit(torch::nn::Linear net, const std::vector<torch::Tensor> &inputs,
         const std::vector<torch::Tensor> &targets) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  const int64_t accum_steps = 4;
  std::vector<torch::Tensor> params = net->parameters();
  std::vector<torch::Tensor> grad_sums;
  for (const auto &p : params) {
    grad_sums.push_back(torch::zeros_like(p));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto pred = net->forward(inputs[i]);
    auto loss = torch::mse_loss(pred, targets[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      grad_sums[k] += params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      grad_sums[k] += params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    if ((i + 1) % accum_steps == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = grad_sums[k] / accum_steps;
        grad_sums[k].zero_();
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}

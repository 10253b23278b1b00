// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// The buffer rebuilt with the free function torch::add(acc, g) every micro-batch; .grad is
// reset only after step().
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> sums;
  for (auto &p : params) sums.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      sums[k] = torch::add(sums[k], params[k].grad());
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      sums[k] = torch::add(sums[k], params[k].grad());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = sums[k] / accum;
        sums[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

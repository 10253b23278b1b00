// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// Parameters walked through the optimizer's param_groups() with a running index into the
// buffer; the only gradient reset is the optimizer's zero_grad() after the step.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  std::vector<torch::Tensor> buf;
  for (auto &group : opt.param_groups())
    for (auto &p : group.params()) buf.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    size_t k = 0;
    for (auto &group : opt.param_groups()) {
      for (auto &p : group.params()) {
        buf[k++] += p.grad();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
        // CHECK-FIXES: {{^}}        buf[k++] += p.grad();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        p.grad().zero_();{{$}}
      }
    }
    if ((i + 1) % accum == 0) {
      k = 0;
      for (auto &group : opt.param_groups()) {
        for (auto &p : group.params()) {
          p.mutable_grad() = buf[k] / accum;
          buf[k++].zero_();
        }
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

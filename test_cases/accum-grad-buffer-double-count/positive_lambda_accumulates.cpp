// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 3, 2, 1
// A lambda captures the buffer and adds the parameters' gradients into it; the training loop
// calls it on every micro-batch and only zeroes .grad after stepping.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(5e-4));
  const int accum_steps = 3;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> accumulated;
  for (const auto &p : params) accumulated.push_back(torch::zeros_like(p));

  auto collect = [&]() {
    for (size_t i = 0; i < params.size(); ++i) {
      accumulated[i].add_(params[i].grad());
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES-UNSAFE: {{^}}      accumulated[i].add_(params[i].grad());{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      params[i].grad().zero_();{{$}}
    }
  };
  auto write_back = [&]() {
    for (size_t i = 0; i < params.size(); ++i) {
      params[i].mutable_grad() = accumulated[i] / accum_steps;
      accumulated[i].zero_();
    }
  };

  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::huber_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    collect();
    if ((i + 1) % accum_steps == 0) {
      write_back();
      adam.step();
      adam.zero_grad();
    }
  }
}

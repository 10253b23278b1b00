// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: does not map to the stand-in model
// Two buffers, two findings (each with its reset); the bare weight tensors are not parameters of the
// runtime's stand-in model, so --confirm cannot run it.
// Bare weight tensors instead of a module, one accumulator tensor each. backward() adds into
// w.grad() on every micro-batch and nothing clears it before the next add.
#include <torch/torch.h>

void fit_linear(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  auto w = torch::zeros({4, 1}, torch::requires_grad());
  auto b = torch::zeros({1}, torch::requires_grad());
  torch::optim::SGD opt({w, b}, 0.1);
  const int accum = 4;
  torch::Tensor w_acc = torch::zeros_like(w);
  torch::Tensor b_acc = torch::zeros_like(b);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto pred = torch::matmul(xs[i], w) + b;
    auto loss = (pred - ys[i]).pow(2).mean() / accum;
    loss.backward();
    w_acc += w.grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES-UNSAFE: {{^}}    w_acc += w.grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    w.grad().zero_();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    b_acc += b.grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    b.grad().zero_();{{$}}
    b_acc += b.grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES: {{^}}    b_acc += b.grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    b.grad().zero_();{{$}}
    if ((i + 1) % accum == 0) {
      w.mutable_grad() = w_acc.clone();
      b.mutable_grad() = b_acc.clone();
      w_acc.zero_();
      b_acc.zero_();
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-executable: the fix-it changes nothing the runtime ran.*p.grad\(\).mul_\(factor\)
// A clip written by hand: a helper measures the global gradient norm and the gradients are
// rescaled in place by max_norm / norm when that is below 1. It runs after every micro-batch's
// backward(), so it rescales partial window sums, as clip_grad_norm_ would there.
#include <cmath>
#include <torch/torch.h>
#include <vector>

double global_grad_norm(const std::vector<torch::Tensor> &params) {
  double squares = 0.0;
  for (const auto &p : params)
    if (p.grad().defined()) {
      const double n = p.grad().norm().item<double>();
      squares += n * n;
    }
  return std::sqrt(squares);
}

void rescale_to(std::vector<torch::Tensor> params, double max_norm) {
  const double factor = max_norm / (global_grad_norm(params) + 1e-6);
  if (factor < 1.0)
    for (auto &p : params)
      if (p.grad().defined())
        p.grad().mul_(factor);
}

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs) {
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4));
  const int accumulation_steps = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    (net->forward(xs[i]).pow(2).mean() / accumulation_steps).backward();
    rescale_to(net->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch of an accumulation window of N = accumulation_steps = 8{{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES-UNSAFE: {{^}}    (net->forward(xs[i]).pow(2).mean() / accumulation_steps).backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accumulation_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      rescale_to(net->parameters(), 1.0);{{$}}
    if ((i + 1) % accumulation_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

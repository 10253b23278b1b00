// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Mixed-precision style loop: the gradients are cleared only when an overflow is found,
// and that branch skips the update with `continue`. On every normal window step() runs
// and nothing clears .grad afterwards, so the windows pile up.
#include <torch/torch.h>

bool has_overflow(const std::vector<torch::Tensor> &params) {
  for (const auto &p : params)
    if (p.grad().defined() && !torch::isfinite(p.grad()).all().item<bool>())
      return true;
  return false;
}

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4));
  constexpr int kAccumulate = 8;
  for (int it = 0; it < static_cast<int>(xs.size()); ++it) {
    auto loss = torch::cross_entropy_loss(net->forward(xs[it]), ys[it]) / kAccumulate;
    loss.backward();
    if ((it + 1) % kAccumulate != 0)
      continue;
    if (has_overflow(net->parameters())) {
      opt.zero_grad();
      continue;
    }
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: this reset runs only on a path that leaves before step(){{.*}}
    // CHECK-FIXES: {{^}}    opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    opt.zero_grad();{{$}}
  }
}

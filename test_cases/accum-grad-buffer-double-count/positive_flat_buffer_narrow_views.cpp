// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: a `narrow` view of a tensor; the interpreter does not model views
// One flat float buffer holds every parameter's gradient side by side; each micro-batch's
// .grad is folded in through narrow() views of it. .grad is cleared only after the step.
#include <torch/torch.h>

struct FlatAccumulator {
  torch::Tensor flat;
  std::vector<torch::Tensor> params;

  explicit FlatAccumulator(std::vector<torch::Tensor> ps) : params(std::move(ps)) {
    int64_t n = 0;
    for (const auto &p : params) n += p.numel();
    flat = torch::zeros({n});
  }
};

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &inputs,
         const std::vector<torch::Tensor> &labels) {
  FlatAccumulator acc(net->parameters());
  torch::optim::SGD sgd(acc.params, torch::optim::SGDOptions(0.02).momentum(0.9));
  const int64_t chunks = 3;
  for (size_t b = 0; b < inputs.size(); ++b) {
    auto loss = torch::cross_entropy_loss(net->forward(inputs[b]), labels[b]) / chunks;
    loss.backward();
    int64_t at = 0;
    for (const auto &p : acc.params) {
      acc.flat.narrow(0, at, p.numel()).add_(p.grad().flatten());
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer 'flat' receives .grad on every micro-batch{{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      acc.flat.narrow(0, at, p.numel()).add_(p.grad().flatten());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      p.grad().zero_();{{$}}
      at += p.numel();
    }
    if ((b + 1) % chunks != 0)
      continue;
    at = 0;
    for (auto &p : acc.params) {
      p.mutable_grad().copy_(acc.flat.narrow(0, at, p.numel()).view_as(p));
      at += p.numel();
    }
    sgd.step();
    sgd.zero_grad();
    acc.flat.zero_();
  }
}

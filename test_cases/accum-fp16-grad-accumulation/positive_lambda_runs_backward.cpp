// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in bfloat16 .grad
// A lambda computes the loss and calls backward() for one micro-batch; the loop steps every
// 4 calls and the model was cast to bfloat16, so the lambda's backward() sums in bfloat16.
#include <torch/torch.h>

void train(torch::nn::Linear &encoder, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  encoder->to(torch::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  encoder->to(torch::kFloat);{{$}}
  torch::optim::SGD opt(encoder->parameters(), 0.1);
  const int n_accum = 4;
  auto micro_step = [&](const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(encoder->forward(x.to(torch::kBFloat16)), y.to(torch::kBFloat16));
    // CHECK-FIXES-UNSAFE: {{^}}  auto micro_step = [&](const torch::Tensor &x, const torch::Tensor &y) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(encoder->forward(x.to(torch::kFloat)), y.to(torch::kFloat));{{$}}
    (loss / n_accum).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
  };
  for (size_t t = 0; t < xs.size(); ++t) {
    micro_step(xs[t], ys[t]);
    if ((t + 1) % n_accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

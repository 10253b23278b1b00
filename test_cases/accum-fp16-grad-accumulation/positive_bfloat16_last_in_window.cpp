// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in bfloat16 .grad
// bfloat16 parameters, window closed by `step % N == N - 1`: .grad is bfloat16 (8 significant
// bits), so the 4 micro-batch gradients are summed with heavy rounding.
#include <torch/torch.h>

void fit(torch::nn::Sequential &net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  net->to(torch::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}         const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  net->to(torch::kFloat);{{$}}
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  constexpr int kAccum = 4;
  for (int step = 0; step < static_cast<int>(xs.size()); step++) {
    torch::Tensor pred = net->forward(xs[step].to(torch::kBFloat16));
    torch::Tensor loss = torch::nn::functional::mse_loss(pred, ys[step].to(torch::kBFloat16));
    // CHECK-FIXES-UNSAFE: {{^}}  for (int step = 0; step < static_cast<int>(xs.size()); step++) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor pred = net->forward(xs[step].to(torch::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor loss = torch::nn::functional::mse_loss(pred, ys[step].to(torch::kFloat));{{$}}
    (loss / kAccum).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if (step % kAccum == kAccum - 1) {
      adam.step();
      adam.zero_grad();
    }
  }
}

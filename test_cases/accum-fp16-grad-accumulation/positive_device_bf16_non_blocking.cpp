// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in bfloat16 .grad
// `to(device, torch::kBFloat16, /*non_blocking=*/true)` moves and casts the model at once;
// 4 micro-batches per optimizer step then sum in bfloat16 .grad.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const torch::Device device(torch::kCUDA);
  model->to(device, torch::kBFloat16, /*non_blocking=*/true);
  // CHECK-FIXES-UNSAFE: {{^}}  const torch::Device device(torch::kCUDA);{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(device, torch::kFloat, /*non_blocking=*/true);{{$}}
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int micro_per_step = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto x = xs[i].to(device, torch::kBFloat16);
    auto y = ys[i].to(device, torch::kBFloat16);
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto x = xs[i].to(device, torch::kFloat);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto y = ys[i].to(device, torch::kFloat);{{$}}
    auto loss = torch::mse_loss(model->forward(x), y) / micro_per_step;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % micro_per_step == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

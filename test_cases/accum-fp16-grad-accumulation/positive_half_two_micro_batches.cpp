// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// float16 parameters with a window of only 2 micro-batches (`j % 2 == 1`, literal N): even one
// addition in float16 .grad rounds the first micro-batch's gradient against the second.
#include <torch/torch.h>

void finetune(torch::nn::Linear &proj, const std::vector<torch::Tensor> &src,
              const std::vector<torch::Tensor> &dst) {
  proj->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}              const std::vector<torch::Tensor> &dst) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  proj->to(torch::kFloat);{{$}}
  torch::optim::SGD opt(proj->parameters(), 0.05);
  for (size_t j = 0; j < src.size(); ++j) {
    auto loss = torch::mse_loss(proj->forward(src[j].to(torch::kHalf)), dst[j].to(torch::kHalf)) / 2;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t j = 0; j < src.size(); ++j) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(proj->forward(src[j].to(torch::kFloat)), dst[j].to(torch::kFloat)) / 2;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if (j % 2 == 1) {
      opt.step();
      opt.zero_grad();
    }
  }
}

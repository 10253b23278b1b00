// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// kFloat16 conversion; the loop skips the update with an early `continue` until the
// window of 8 micro-batches is complete, so .grad sums 8 gradients in float16.
#include <torch/torch.h>

void run_epoch(torch::nn::Linear &regressor, std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches) {
  regressor->to(torch::kFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}void run_epoch(torch::nn::Linear &regressor, std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  regressor->to(torch::kFloat32);{{$}}
  torch::optim::SGD sgd(regressor->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int grad_accum = 8;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto &[features, labels] = batches[b];
    auto loss = torch::l1_loss(regressor->forward(features.to(torch::kFloat16)),
                               labels.to(torch::kFloat16)) / grad_accum;
    // CHECK-FIXES-UNSAFE: {{^}}    auto &[features, labels] = batches[b];{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::l1_loss(regressor->forward(features.to(torch::kFloat32)),{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}                               labels.to(torch::kFloat32)) / grad_accum;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((b + 1) % grad_accum != 0)
      continue;
    sgd.step();
    sgd.zero_grad();
  }
}

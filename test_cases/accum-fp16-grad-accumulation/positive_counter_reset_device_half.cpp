// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// `model->to(device, torch::kHalf)` moves and converts in one call; a counter reaching
// N = 8 and reset triggers the step, so 8 backward() calls sum into float16 .grad.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::Device device, const std::vector<torch::Tensor> &data,
           const std::vector<torch::Tensor> &labels) {
  model->to(device, torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &labels) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(device, torch::kFloat);{{$}}
  torch::optim::SGD opt(model->parameters(), 0.1);
  int pending = 0;
  const int accumulate = 8;
  for (size_t k = 0; k < data.size(); ++k) {
    auto input = data[k].to(device, torch::kHalf);
    auto target = labels[k].to(device, torch::kHalf);
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t k = 0; k < data.size(); ++k) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto input = data[k].to(device, torch::kFloat);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto target = labels[k].to(device, torch::kFloat);{{$}}
    auto loss = torch::mse_loss(model->forward(input), target) / accumulate;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if (++pending == accumulate) {
      opt.step();
      opt.zero_grad();
      pending = 0;
    }
  }
}

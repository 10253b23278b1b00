// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in bfloat16 .grad
// Nested loops: the inner loop runs the 4 micro-batches of one optimizer step and step()
// follows it; the parameters are bfloat16, so the inner backward() calls sum in bfloat16.
#include <torch/torch.h>

void train(torch::nn::Linear &layer, const std::vector<torch::Tensor> &x,
           const std::vector<torch::Tensor> &y) {
  layer->to(torch::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &y) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  layer->to(torch::kFloat);{{$}}
  torch::optim::SGD opt(layer->parameters(), 0.02);
  const size_t micro = 4;
  for (size_t start = 0; start + micro <= x.size(); start += micro) {
    opt.zero_grad();
    for (size_t m = 0; m < micro; ++m) {
      auto pred = layer->forward(x[start + m].to(torch::kBFloat16));
      auto loss = torch::mse_loss(pred, y[start + m].to(torch::kBFloat16)) / static_cast<double>(micro);
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t m = 0; m < micro; ++m) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto pred = layer->forward(x[start + m].to(torch::kFloat));{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(pred, y[start + m].to(torch::kFloat)) / static_cast<double>(micro);{{$}}
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    }
    opt.step();
  }
}

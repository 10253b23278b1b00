// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: .grad
// A half-precision model whose loss (or a log of it) is converted to float: the gradients still
// accumulate in the half-precision .grad, so the conversion is no fp32 path for them.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(torch::kFloat);{{$}}
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto out = model->forward(xs[i].to(torch::kHalf)).to(torch::kFloat);
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto out = model->forward(xs[i].to(torch::kFloat)).to(torch::kFloat);{{$}}
    auto loss = torch::mse_loss(out, ys[i]) / accum;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = accum = 8 micro-batches {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

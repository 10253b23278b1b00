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
  double running = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kHalf)), ys[i].to(torch::kHalf)) / accum;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kFloat)), ys[i].to(torch::kFloat)) / accum;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = accum = 8 micro-batches {{.*}} [accum-fp16-grad-accumulation]
    running += loss.detach().to(torch::kFloat).item<double>();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

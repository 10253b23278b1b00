// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// The target dtype sits in a named constant (`train_dtype = torch::kHalf`) used for the
// model and the inputs; the 8-micro-batch window still sums into float16 .grad.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const torch::Dtype train_dtype = torch::kHalf;
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  const torch::Dtype train_dtype = torch::kFloat;{{$}}
  model->to(train_dtype);
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(train_dtype)), ys[i].to(train_dtype)) / accum;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

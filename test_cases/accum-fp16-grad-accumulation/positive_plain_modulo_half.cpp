// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// The model is converted to float16 before a loop that steps every 8 micro-batches:
// every backward() rounds its gradient into the half-precision .grad running sum.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets) {
  model->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &targets) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(torch::kFloat);{{$}}
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  const int accum_steps = 8;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto out = model->forward(inputs[i].to(torch::kHalf));
    auto loss = torch::mse_loss(out, targets[i].to(torch::kHalf)) / accum_steps;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < inputs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto out = model->forward(inputs[i].to(torch::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(out, targets[i].to(torch::kFloat)) / accum_steps;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

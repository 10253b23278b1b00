// RUN: %check_gradlint %s
// The dtype is spelled as the enumerator `c10::ScalarType::Half` in the module's conversion and
// as `at::kHalf` for the inputs; a counter reaching N guards the step. The float32 fix keeps
// each spelling's namespace.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, torch::Device device) {
  model->to(device, c10::ScalarType::Half);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &ys, torch::Device device) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(device, c10::ScalarType::Float);{{$}}
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  const int window = 4;
  int collected = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto prediction = model->forward(xs[i].to(device, at::kHalf));
    auto loss = torch::mse_loss(prediction, ys[i].to(device, at::kHalf)) / window;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto prediction = model->forward(xs[i].to(device, at::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(prediction, ys[i].to(device, at::kFloat)) / window;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = {{.*}} [accum-fp16-grad-accumulation]
    if (++collected == window) {
      optimizer.step();
      optimizer.zero_grad();
      collected = 0;
    }
  }
}

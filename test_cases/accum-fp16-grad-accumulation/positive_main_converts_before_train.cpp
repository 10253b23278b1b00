// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// main() casts the model to float16 and then calls train(), whose loop steps once every
// 8 micro-batches: the conversion reaches the loop, .grad accumulates in float16.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

int main() {
  torch::nn::Linear model(8, 4);
  model->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}  torch::nn::Linear model(8, 4);{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(torch::kFloat);{{$}}
  std::vector<torch::Tensor> xs, ys;
  for (int i = 0; i < 24; ++i) {
    xs.push_back(torch::randn({4, 8}, torch::kHalf));
    ys.push_back(torch::randn({4, 4}, torch::kHalf));
    // CHECK-FIXES-UNSAFE: {{^}}  for (int i = 0; i < 24; ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    xs.push_back(torch::randn({4, 8}, torch::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    ys.push_back(torch::randn({4, 4}, torch::kFloat));{{$}}
  }
  train(model, xs, ys, 8);
  return 0;
}

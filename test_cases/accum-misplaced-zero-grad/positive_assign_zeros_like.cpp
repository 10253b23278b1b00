// RUN: %check_gradlint %s
// Assigning a zero tensor to .grad is a reset like zero_grad(): at the top of
// every micro-batch it discards the window's earlier gradients.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    for (auto &p : model->parameters())
      p.mutable_grad() = torch::zeros_like(p);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &p : model->parameters()){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        p.mutable_grad() = torch::zeros_like(p);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      optimizer.step();
  }
}

// RUN: %check_gradlint %s
// The classic mistake (seed 002, pitfall 2): zero_grad() at the top of every
// micro-batch throws away the window's earlier gradients.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accumulation_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}  for (size_t i = 0; i < inputs.size(); ++i) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accumulation_steps;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accumulation_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accumulation_steps;
    loss.backward();
    if ((i + 1) % accumulation_steps == 0)
      optimizer.step();
  }
}

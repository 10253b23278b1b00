// RUN: %check_gradlint %s
// AdamW's weight decay is divided by N in a const local read only by the options: the division
// goes from its initializer.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int window = 4;
  const double decay = 0.01 / window;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: weight decay is divided {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  const int window = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  const double decay = 0.01;{{$}}
  torch::optim::AdamW adamw(model->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(decay));
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / window;
    loss.backward();
    if (++micro == window) {
      adamw.step();
      adamw.zero_grad();
      micro = 0;
    }
  }
}

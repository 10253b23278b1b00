// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.1 as written vs 0.3
// Counter that reaches N and is reset; AdamW's decoupled decay was divided by the same N,
// so each step() shrinks the weights three times less than intended.
#include <torch/torch.h>

void train(torch::nn::Sequential encoder, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int window = 3;
  torch::optim::AdamW adamw(encoder->parameters(),
                            torch::optim::AdamWOptions(0.1).weight_decay(0.3 / window));
  // CHECK-MESSAGES: :[[@LINE-1]]:78: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  torch::optim::AdamW adamw(encoder->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}                            torch::optim::AdamWOptions(0.1).weight_decay(0.3));{{$}}
  int in_window = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::huber_loss(encoder->forward(xs[i]), ys[i]) / window;
    loss.backward();
    if (++in_window == window) {
      adamw.step();
      adamw.zero_grad();
      in_window = 0;
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.1
// The update decision is stored in a bool; SGD with Nesterov momentum whose decay the
// author divided by the accumulation steps along with the loss.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accumulation_steps = 2;
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05)
                                               .momentum(0.9)
                                               .nesterov(true)
                                               .weight_decay(0.1 / accumulation_steps));
  // CHECK-MESSAGES: :[[@LINE-1]]:66: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}                                               .nesterov(true){{$}}
  // CHECK-FIXES-NEXT: {{^}}                                               .weight_decay(0.1));{{$}}
  for (size_t i = 0; i < xs.size(); ++i) {
    const bool update_now = (i + 1) % accumulation_steps == 0;
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accumulation_steps;
    loss.backward();
    if (update_now) {
      sgd.step();
      sgd.zero_grad();
      std::cout << "step at micro-batch " << i << "\n";
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.1 as written vs 0.3
// Nested loops: the inner loop runs the N micro-batches of a window and step() follows
// it; SGD with momentum whose weight decay was divided by the same N.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &data,
           const std::vector<torch::Tensor> &targets) {
  const int micro_batches = 3;
  torch::optim::SGD opt(net->parameters(),
                        torch::optim::SGDOptions(0.02).momentum(0.9).weight_decay(0.3 / micro_batches));
  // CHECK-MESSAGES: :[[@LINE-1]]:87: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  torch::optim::SGD opt(net->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}                        torch::optim::SGDOptions(0.02).momentum(0.9).weight_decay(0.3));{{$}}
  const size_t steps = data.size() / 3;
  for (size_t s = 0; s < steps; ++s) {
    for (int m = 0; m < micro_batches; ++m) {
      const size_t idx = s * 3 + m;
      auto loss = torch::mse_loss(net->forward(data[idx]), targets[idx]) / micro_batches;
      loss.backward();
    }
    opt.step();
    opt.zero_grad();
  }
}

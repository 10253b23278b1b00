// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.2
// SGD with the L2 term written as `0.2 / kAccum` and the boundary as `i % N == N - 1`:
// the decay is applied at step() only, so it is kAccum times weaker than intended.
#include <torch/torch.h>

constexpr int kAccum = 4;

void train_epoch(torch::nn::Sequential net, const std::vector<torch::Tensor> &x,
                 const std::vector<torch::Tensor> &y) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).weight_decay(0.2 / kAccum));
  // CHECK-MESSAGES: :[[@LINE-1]]:91: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}                 const std::vector<torch::Tensor> &y) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).weight_decay(0.2));{{$}}
  for (int i = 0; i < static_cast<int>(x.size()); ++i) {
    auto loss = torch::mse_loss(net->forward(x[i]), y[i]);
    (loss / kAccum).backward();
    if (i % kAccum == kAccum - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

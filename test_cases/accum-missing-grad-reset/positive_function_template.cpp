// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed
// Training loop as a function template over the optimizer type, instantiated with SGD;
// the loop itself never resets the gradients. The template is read in its one instantiation,
// where `optimizer.step()` is SGD's: the fix-it adds the reset after it, and the fixed loop
// matches the reference (confirmed).
#include <torch/torch.h>

template <typename Optimizer>
double train_epoch(torch::nn::Sequential &net, Optimizer &optimizer,
                   const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  constexpr int kMicroBatches = 4;
  double total = 0.0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / kMicroBatches;
    loss.backward();
    total += loss.item<double>();
    if (i % kMicroBatches == kMicroBatches - 1) {
      optimizer.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      optimizer.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer.zero_grad();{{$}}
    }
  }
  return total;
}

void run(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  train_epoch(net, sgd, xs, ys);
}

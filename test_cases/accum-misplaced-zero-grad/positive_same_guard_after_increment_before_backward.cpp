// RUN: %check_gradlint %s
// Both guards read `k % n == 0` after the increment, so both hold on the window's last
// micro-batch: the reset there runs before that micro-batch's backward() and step(), and
// discards the N - 1 gradients the window had summed.
#include <torch/torch.h>

void train(torch::nn::Linear net, const std::vector<torch::Tensor> &xs, int n) {
  torch::optim::RMSprop rms(net->parameters(), torch::optim::RMSpropOptions(1e-3));
  int k = 0;
  for (const auto &x : xs) {
    ++k;
    if (k % n == 0)
      rms.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset {{.*}} [accum-misplaced-zero-grad]
    (net->forward(x).abs().mean() / n).backward();
    if (k % n == 0)
      rms.step();
  }
}

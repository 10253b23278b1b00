// RUN: %check_gradlint %s
// The helper runs the reset AND backward(): it is followed into, and the reset is
// reported inside it (it runs on every micro-batch of the caller's window).
#include <torch/torch.h>

namespace nn = torch::nn;

static torch::Tensor forward_backward(nn::Linear &m, torch::optim::Adam &o, const torch::Tensor &x,
                                      const torch::Tensor &y, int k) {
  o.zero_grad();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradient reset runs on every micro-batch {{.*}}
  // [accum-misplaced-zero-grad]
  auto loss = torch::mse_loss(m->forward(x), y) / k;
  loss.backward();
  return loss.detach();
}

void train(nn::Linear m, torch::optim::Adam &o, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int k = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    forward_backward(m, o, xs[i], ys[i], k);
    if (i % k == k - 1)
      o.step();
  }
}

// RUN: %check_gradlint %s
// torch::autograd::backward({loss}) is backward() too; the loss is not divided.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    torch::autograd::backward({loss});
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    if (i % N == N - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

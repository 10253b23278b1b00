// RUN: %check_gradlint %s
// `loss * (1.0 / N)` with a helper predicate guard.
#include <torch/torch.h>

bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(torch::nn::Linear model, torch::optim::SGD sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 8;
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) * (1.0 / N);
    loss.backward();
    if (should_step(i, N)) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

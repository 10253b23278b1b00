// RUN: %check_gradlint %s
// The epoch is sized in whole windows (steps_per_epoch * N micro-batches), so the data loop
// always ends on a boundary.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int64_t N = 4;
  const int64_t steps_per_epoch = static_cast<int64_t>(xs.size()) / N;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int64_t i = 0; i < N * steps_per_epoch; ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;
      loss.backward();
      if ((i + 1) % N == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

// RUN: %check_gradlint %s
// The clip is under the boundary flag, before step(): correct.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.05);
  const int64_t n = 16;
  for (int64_t it = 0; it < static_cast<int64_t>(xs.size()); ++it) {
    const bool sync = (it + 1) % n == 0;
    auto objective = torch::mse_loss(model->forward(xs[it]), ys[it]) * (1.0 / n);
    objective.backward();
    if (sync) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);
      sgd.step();
      sgd.zero_grad();
    }
  }
}

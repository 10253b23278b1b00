// RUN: %check_gradlint %s
// The counter runs across epochs; the zero_grad() between epochs runs only when no window is
// open (its condition tests the counter), so nothing is discarded.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  int64_t micro = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      ++micro;
      if (micro % accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
    if (micro % accum == 0)
      opt.zero_grad();
  }
}

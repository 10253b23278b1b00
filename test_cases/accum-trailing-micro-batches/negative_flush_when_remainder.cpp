// RUN: %check_gradlint %s
// After the data loop, the epoch steps once more when its batch count leaves a remainder, which is
// exactly when a window is still open.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const size_t grad_accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
      loss.div(static_cast<double>(grad_accum)).backward();
      if ((i + 1) % grad_accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
    if (xs.size() % grad_accum != 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

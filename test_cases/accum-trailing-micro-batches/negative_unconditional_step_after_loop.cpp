// RUN: %check_gradlint %s
// train_one_epoch() with an index guard, followed by an unconditional step() after the loop that
// applies the trailing partial window (after a full last window it steps on zeroed gradients).
#include <torch/torch.h>

void train_one_epoch(torch::nn::Linear &model, torch::optim::SGD &opt,
                     const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  opt.step();
  opt.zero_grad();
}

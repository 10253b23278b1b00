// RUN: %check_gradlint %s
// model->zero_grad() at the start of each window (i % N == 0), before the window's first
// backward(): a valid reset through the module rather than the optimizer.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 3;
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    if (i % accum == 0)
      model->zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (i % accum == accum - 1)
      adam.step();
  }
}

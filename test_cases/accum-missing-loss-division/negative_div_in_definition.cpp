// RUN: %check_gradlint %s
// The loss is divided by N where it is defined: `crit(...) / N`.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accumulation_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accumulation_steps;
    loss.backward();
    if ((i + 1) % accumulation_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// `wd / accum_steps` is computed, but only printed; the optimizer gets the full decay.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 2;
  const double wd = 0.2;
  const double decay_share = wd / accum_steps;
  std::cout << "decay per micro-batch (for reference): " << decay_share << "\n";
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).weight_decay(wd));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

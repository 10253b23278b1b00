// RUN: %check_gradlint %s
// After each boundary step() the loop calls on_update(), declared here but defined in
// another translation unit: it may well reset the gradients, so nothing is reported.
#include <torch/torch.h>

void on_update(torch::optim::Optimizer &optimizer, int64_t global_step);

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  int64_t global_step = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      on_update(opt, ++global_step);
    }
  }
}

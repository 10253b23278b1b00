// RUN: %check_gradlint %s
// Single process, no all-reduce at all: clipping at the boundary before
// step() is the right place.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

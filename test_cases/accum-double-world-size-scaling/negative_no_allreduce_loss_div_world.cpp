// RUN: %check_gradlint %s
// No gradient all-reduce at all (single process), though the loss is divided by
// WORLD_SIZE: whatever that does, it is not a double division by the world size.
#include <torch/torch.h>

#include <cstdlib>
#include <string>

void train(torch::nn::Linear &model, torch::optim::SGD &opt, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    loss = loss / (accum_steps * world_size);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

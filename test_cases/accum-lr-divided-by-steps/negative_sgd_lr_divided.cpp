// RUN: %check_gradlint %s
// Plain SGD: the update is linear in the learning rate and in the gradient, so
// lr / N with a summed gradient is the same update as lr with loss / N.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  const double lr = 0.1;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(lr / accum_steps));
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

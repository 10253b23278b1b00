// RUN: %check_gradlint %s
// The scheduler is stepped at the start of each window (`i % N == 0`): once per
// window, so once per optimizer step, just before the window's micro-batches.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  const size_t accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i % accum_steps == 0 && i > 0)
      scheduler.step();
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / static_cast<double>(accum_steps);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

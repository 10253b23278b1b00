// RUN: %check_gradlint %s
// The correct form: StepLR is stepped inside the `(i + 1) % N == 0` branch,
// right after the optimizer, so it advances once per optimizer step.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/1, /*gamma=*/0.5);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      scheduler.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// No accumulation: the optimizer steps on every batch, so stepping the scheduler
// on every batch is one scheduler step per optimizer step.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(3e-4));
  torch::optim::StepLR scheduler(optimizer, 1000, 0.5);
  for (size_t i = 0; i < inputs.size(); ++i) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    loss.backward();
    optimizer.step();
    scheduler.step();
  }
}

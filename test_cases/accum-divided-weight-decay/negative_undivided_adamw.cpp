// RUN: %check_gradlint %s
// The correct form: the loss is divided by the accumulation steps, the weight decay is
// kept as it would be in large-batch training.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  const double weight_decay = 0.3;
  torch::optim::AdamW optimizer(model->parameters(),
                                torch::optim::AdamWOptions(0.05).weight_decay(weight_decay));
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

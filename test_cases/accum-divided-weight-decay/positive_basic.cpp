// RUN: %check_gradlint %s
// GRADLINT-PLACEHOLDER: written by tools/new_check.py; delete this line once the case is written.
// TODO: a loop with the bug accum-divided-weight-decay finds; annotate its warning, pin its fix-it.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: TODO the message of accum-divided-weight-decay [accum-divided-weight-decay]
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

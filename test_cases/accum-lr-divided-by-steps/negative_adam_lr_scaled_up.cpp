// RUN: %check_gradlint %s
// The learning rate is multiplied (linear scaling rule for the larger effective
// batch), not divided, by N; a helper predicate decides the boundary.
#include <torch/torch.h>

namespace {
constexpr int kAccumulate = 4;
bool should_step(size_t i) { return (i + 1) % kAccumulate == 0; }
} // namespace

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, double lr) {
  torch::optim::AdamW optimizer(model->parameters(),
                                torch::optim::AdamWOptions(lr * kAccumulate).weight_decay(0.01));
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / kAccumulate;
    loss.backward();
    if (should_step(i)) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

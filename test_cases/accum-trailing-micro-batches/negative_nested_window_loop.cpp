// RUN: %check_gradlint %s
// Outer loop over optimizer steps, inner loop over exactly N micro-batches, step() after it:
// every window is full by construction.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int micro_batches = 4;
  const int num_steps = static_cast<int>(xs.size()) / micro_batches;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int s = 0; s < num_steps; ++s) {
      opt.zero_grad();
      for (int m = 0; m < micro_batches; ++m) {
        const int k = s * micro_batches + m;
        auto loss = torch::mse_loss(model->forward(xs[k]), ys[k]) / micro_batches;
        loss.backward();
      }
      opt.step();
    }
  }
}

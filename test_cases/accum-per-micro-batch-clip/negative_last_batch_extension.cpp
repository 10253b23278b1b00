// RUN: %check_gradlint %s
// Boundary guard with the last-batch-of-epoch extension; the clip is inside it.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int accum_steps) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01));
  const int num_batches = static_cast<int>(inputs.size());
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      opt.step();
      opt.zero_grad();
    }
  }
}

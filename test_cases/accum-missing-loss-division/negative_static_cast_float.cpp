// RUN: %check_gradlint %s
// Division by `static_cast<float>(N)`, reassigned to the same variable, last-batch
// extension of the boundary, std::unique_ptr optimizer.
#include <memory>
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters());
  const int num_batches = static_cast<int>(xs.size());
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss = loss / static_cast<float>(accum_steps);
    loss.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt->step();
      opt->zero_grad();
    }
  }
}

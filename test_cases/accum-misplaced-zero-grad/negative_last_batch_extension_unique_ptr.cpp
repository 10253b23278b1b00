// RUN: %check_gradlint %s
// Reset once before the loop and after each step(); the boundary also fires on the
// last batch of the epoch. Optimizer held by std::unique_ptr.
#include <memory>
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                   torch::optim::AdamWOptions(1e-4));
  const int num_batches = static_cast<int>(xs.size());
  opt->zero_grad();
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt->step();
      opt->zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// SGD with momentum, lr / N set on an options variable: momentum is linear in the
// gradient too, so this equals dividing the loss; the loop uses `continue`.
#include <torch/torch.h>

void run_epoch(torch::nn::Sequential model, std::vector<torch::Tensor> &batches,
               std::vector<torch::Tensor> &labels, double base_lr) {
  const int grad_accum = 4;
  torch::optim::SGDOptions options(base_lr);
  options.lr(base_lr / grad_accum);
  options.momentum(0.9).nesterov(true);
  torch::optim::SGD sgd(model->parameters(), options);
  for (int step = 1; step <= static_cast<int>(batches.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(batches[step - 1]), labels[step - 1]);
    loss.backward();
    if (step % grad_accum != 0)
      continue;
    sgd.step();
    sgd.zero_grad();
  }
}

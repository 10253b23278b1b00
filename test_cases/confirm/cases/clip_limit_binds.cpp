// The same loop with a limit that binds: each partial sum is clipped.
// CONFIRM-VERDICT: accum-per-micro-batch-clip confirmed
// CONFIRM-FIGURE: accum-per-micro-batch-clip rel_error_buggy > 1e-2
// CONFIRM-FIGURE: accum-per-micro-batch-clip parameter_error_as_written > 1e-2
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  const double max_norm = 0.05;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Correct code the check flags: the loss is scaled by 0.25 = 1/N with N = 4
// written as a constant. Run as written, the loop matches the large-batch
// reference; the fix-it (dividing by N again) would move it off.
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: matches the large-batch reference
// CONFIRM-FIGURE: accum-missing-loss-division parameter_error_as_written < 1e-5
// CONFIRM-FIGURE: accum-missing-loss-division parameter_error_with_fix > 0.1
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss * 0.25).backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// Everything after `if (step % N != 0) continue;` runs only at the boundary, so
// the scheduler stepped there advances once per optimizer step.
#include <torch/torch.h>

void run_epoch(torch::nn::Linear model, std::vector<torch::Tensor> &batches,
               std::vector<torch::Tensor> &labels) {
  torch::optim::RMSprop rms(model->parameters(), torch::optim::RMSpropOptions(1e-3));
  torch::optim::StepLR decay(rms, /*step_size=*/1, /*gamma=*/0.5);
  const int grad_accum = 3;
  for (int step = 1; step <= static_cast<int>(batches.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(batches[step - 1]), labels[step - 1]);
    (loss / grad_accum).backward();
    if (step % grad_accum != 0)
      continue;
    rms.step();
    rms.zero_grad();
    decay.step();
  }
}

// RUN: %check_gradlint %s
// Everything after `if (step % N != 0) continue;` is the boundary branch: the
// clip there runs once per window.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int accum) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                   torch::optim::AdamWOptions(3e-4));
  for (int step = 1; step <= static_cast<int>(inputs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(inputs[step - 1]), targets[step - 1]);
    (loss / accum).backward();
    if (step % accum != 0)
      continue;
    torch::nn::utils::clip_grad_value_(model->parameters(), 1.0);
    opt->step();
    opt->zero_grad();
  }
}

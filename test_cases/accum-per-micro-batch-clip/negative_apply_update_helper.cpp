// RUN: %check_gradlint %s
// The boundary helper apply_update() clips and steps; it is only called in the
// boundary branch, so the clip runs once per window.
#include <torch/torch.h>

void apply_update(torch::nn::Module &model, torch::optim::Optimizer &opt) {
  torch::nn::utils::clip_grad_norm_(model.parameters(), 1.0);
  opt.step();
  opt.zero_grad();
}

void train(torch::nn::Linear model, torch::optim::SGD &opt,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      apply_update(*model, opt);
  }
}

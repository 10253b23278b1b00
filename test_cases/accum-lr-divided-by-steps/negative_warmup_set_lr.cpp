// RUN: %check_gradlint %s
// Linear warm-up on the param groups: the lr is divided by the warm-up length at
// each optimizer step, not by the accumulation steps.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const double base_lr = 5e-4;
  const int warmup_steps = 100;
  const int accum_steps = 4;
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(base_lr));
  int update = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      if (update < warmup_steps)
        for (auto &group : optimizer.param_groups())
          group.options().set_lr(base_lr * (update + 1) / warmup_steps);
      optimizer.step();
      optimizer.zero_grad();
      ++update;
    }
  }
}

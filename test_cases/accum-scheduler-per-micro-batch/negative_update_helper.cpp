// RUN: %check_gradlint %s
// A helper does the whole update (step, scheduler, reset) and is called only at
// the boundary, so the scheduler follows the optimizer steps.
#include <torch/torch.h>

static void apply_update(torch::optim::Optimizer &opt, torch::optim::StepLR &sched) {
  opt.step();
  sched.step();
  opt.zero_grad();
}

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  const int N = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / N;
    loss.backward();
    if ((i + 1) % N == 0)
      apply_update(optimizer, scheduler);
  }
}

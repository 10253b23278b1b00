// RUN: %check_gradlint %s
// A counter that wraps at N: `step_in_window == 0` read before the wrap is the window's first
// micro-batch (the reset there is right), read after it the boundary (the step there is
// right). The two tests of the same expression mean different micro-batches.
#include <torch/torch.h>
#include <vector>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  const int kWindow = 8;
  int step_in_window = 0;
  for (const auto &x : xs) {
    if (step_in_window == 0)
      opt.zero_grad();
    (model->forward(x).pow(2).sum() / kWindow).backward();
    step_in_window = (step_in_window + 1) % kWindow;
    if (step_in_window == 0)
      opt.step();
  }
}

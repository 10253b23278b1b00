// RUN: %check_gradlint %s
// Distillation: the frozen teacher's gradients are cleared every iteration, but the
// accumulating optimizer only owns the student's parameters, whose window is intact.
#include <torch/torch.h>

void distill(torch::nn::Linear student, torch::nn::Linear teacher,
             const std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(student->parameters(), torch::optim::SGDOptions(0.01));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    teacher->zero_grad();
    auto soft = teacher->forward(xs[i]).detach();
    auto loss = torch::mse_loss(student->forward(xs[i]), soft) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

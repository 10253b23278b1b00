// RUN: %check_gradlint %s
// A lambda bundles the update (step, scheduler, reset); it is called only when
// the window is complete, so the scheduler follows the optimizer steps.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::Adagrad ada(model->parameters(), torch::optim::AdagradOptions(0.01));
  torch::optim::StepLR sched(ada, 1, 0.5);
  const int n = 4;
  auto update = [&]() {
    ada.step();
    sched.step();
    ada.zero_grad();
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / n;
    loss.backward();
    if ((i + 1) % n == 0)
      update();
  }
}

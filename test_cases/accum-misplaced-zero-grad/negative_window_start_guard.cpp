// RUN: %check_gradlint %s
// Window start guard placed before backward(): the reset runs only at the first
// micro-batch of each window, when no gradient of the window exists yet.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i % accum_steps == 0)
      opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}

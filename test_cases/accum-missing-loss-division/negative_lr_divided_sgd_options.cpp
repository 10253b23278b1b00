// RUN: %check_gradlint %s
// The loss is not divided, but plain SGD's learning rate is: SGD's update is
// lr times the summed gradient, so lr / accum_steps gives exactly the update
// of loss / accum_steps. No missing division.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double lr) {
  const int accum_steps = 4;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(lr / accum_steps));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// The learning rate of SGD's first parameter group is set to lr / accum_steps
// after construction (and, in the second loop, on an options object passed to
// the optimizer): equivalent to dividing the loss with SGD.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double lr, int accum_steps) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(lr));
  opt.param_groups()[0].options().set_lr(lr / accum_steps);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

void train_options(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
                   const std::vector<torch::Tensor> &ys, double lr, int accum_steps) {
  torch::optim::SGDOptions options(0.1);
  options.lr(lr / accum_steps);
  torch::optim::SGD opt(model->parameters(), options);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A constant modulus <= 0 is no accumulation window: `% 0` is undefined behaviour
// and for `% -3` the fix "divide the loss by N" would flip the gradient's sign.
#include <torch/torch.h>

void train_zero(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
                const std::vector<torch::Tensor> &ys) {
  const int accum = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

void train_negative(torch::nn::Linear model, torch::optim::SGD &opt,
                    const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const long accum = -3;
  for (long i = 0; i < static_cast<long>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

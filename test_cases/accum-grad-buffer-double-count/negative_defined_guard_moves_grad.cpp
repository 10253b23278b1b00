// RUN: %check_gradlint %s
// Gradients are moved only for parameters that received one (`if (grad().defined())`), and
// each moved gradient is zeroed right after the add, inside the same guard.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> buf;
  for (auto &p : params) buf.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      if (params[k].grad().defined()) {
        buf[k] += params[k].grad();
        params[k].mutable_grad().zero_();
      }
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = buf[k].clone();
        buf[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

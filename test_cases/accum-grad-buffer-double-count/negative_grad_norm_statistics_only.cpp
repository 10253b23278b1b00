// RUN: %check_gradlint %s
// Look-alike: a buffer of squared gradients is summed every micro-batch for a diagnostics
// printout, but it is never written back into .grad; step() uses the normally accumulated .grad.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> grad_sq;
  for (auto &p : params) grad_sq.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      grad_sq[k] += params[k].grad().pow(2);
    }
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
      for (size_t k = 0; k < params.size(); ++k) {
        std::cout << "param " << k << " grad^2 sum " << grad_sq[k].sum().item<double>() << "\n";
        grad_sq[k].zero_();
      }
    }
  }
}

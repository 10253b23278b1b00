// RUN: %check_gradlint %s
// Helper that takes the gradient out of .grad: it adds into the buffer and resets the gradient
// to undefined, called after each backward(); a counter marks the window boundary.
#include <torch/torch.h>

static void drain_grads(std::vector<torch::Tensor> &into, std::vector<torch::Tensor> &params) {
  for (size_t i = 0; i < params.size(); ++i) {
    into[i] += params[i].grad();
    params[i].mutable_grad() = torch::Tensor();
  }
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 3;
  int pending = 0;
  auto params = model->parameters();
  std::vector<torch::Tensor> bank;
  for (auto &p : params) bank.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::mse_loss(model->forward(xs[i]), ys[i]).backward();
    drain_grads(bank, params);
    if (++pending == accum) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = bank[k] / accum;
        bank[k].zero_();
      }
      opt.step();
      opt.zero_grad();
      pending = 0;
    }
  }
}

// RUN: %check_gradlint %s
// Nested window loop: each inner micro-batch begins with optimizer.zero_grad(), so the buffer
// gets one fresh gradient per micro-batch; after the inner loop the buffer becomes .grad.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const size_t micro = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> window_grad;
  for (auto &p : params) window_grad.push_back(torch::zeros_like(p));
  for (size_t w = 0; w < xs.size() / micro; ++w) {
    for (size_t m = 0; m < micro; ++m) {
      opt.zero_grad();
      const size_t at = w * micro + m;
      auto loss = torch::mse_loss(model->forward(xs[at]), ys[at]) / static_cast<double>(micro);
      loss.backward();
      for (size_t k = 0; k < params.size(); ++k) {
        window_grad[k].add_(params[k].grad());
      }
    }
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad() = window_grad[k].clone();
      window_grad[k].zero_();
    }
    opt.step();
  }
}

// RUN: %check_gradlint %s
// Look-alike: the per-micro-batch gradients come from torch::autograd::grad(), which returns
// fresh tensors and never accumulates into .grad, so summing them into the buffer is correct.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    auto grads = torch::autograd::grad({loss}, params);
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k] += grads[k];
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = acc[k] / accum;
        acc[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// No accumulation window: step() and zero_grad() run on every batch. The buffer is a hand-made
// gradient smoothing written back each time, so .grad never spans two backward() calls.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto params = model->parameters();
  std::vector<torch::Tensor> smooth;
  for (auto &p : params) smooth.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      smooth[k] = 0.5 * smooth[k] + params[k].grad();
      params[k].mutable_grad() = smooth[k].clone();
    }
    opt.step();
    opt.zero_grad();
  }
}

// RUN: %check_gradlint %s
// The boundary branch steps and clears; every other micro-batch clears .grad in the `else`
// branch once it is in the buffer. So .grad is reset on every micro-batch, on both paths.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> total;
  for (auto &p : params) total.push_back(torch::zeros_like(p));
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) total[k].add_(params[k].grad());
    if (i % accum == accum - 1) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = total[k].clone();
        total[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    } else {
      opt.zero_grad();
    }
  }
}

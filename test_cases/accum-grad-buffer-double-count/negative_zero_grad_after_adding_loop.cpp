// RUN: %check_gradlint %s
// Correct hand-written accumulation: right after folding .grad into the buffer the optimizer
// clears the gradients, so every backward() starts from zero and each micro-batch counts once.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  const int accum = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> sums;
  for (const auto &p : params) sums.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      sums[k] += params[k].grad();
    }
    sgd.zero_grad();
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = sums[k] / accum;
        sums[k].zero_();
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}

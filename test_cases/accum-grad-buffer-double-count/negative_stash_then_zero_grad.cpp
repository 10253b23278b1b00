// RUN: %check_gradlint %s
// Correct: on non-boundary micro-batches the gradient is moved into the stash and then cleared;
// the boundary writes back (.grad + stash) / N. Not a misplaced zero_grad either.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 3;
  auto params = model->parameters();
  std::vector<torch::Tensor> stash;
  for (auto &p : params) stash.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum != 0) {
      for (size_t k = 0; k < params.size(); ++k) stash[k] += params[k].grad();
      opt.zero_grad();
    } else {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = (params[k].grad() + stash[k]) / accum;
        stash[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

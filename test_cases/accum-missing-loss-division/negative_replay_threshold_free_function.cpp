// RUN: %check_gradlint %s
// Learning starts once `seen` reaches the warm-up size and then runs on every
// iteration: `seen` only grows, so `seen >= warmup` is no window boundary and the
// loss needs no division.
#include <torch/torch.h>

void learn(torch::nn::Linear &net, torch::optim::SGD &optimizer, const torch::Tensor &x,
           const torch::Tensor &y) {
  optimizer.zero_grad();
  auto loss = torch::mse_loss(net->forward(x), y);
  loss.backward();
  optimizer.step();
}

void train(torch::nn::Linear net, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int warmup = 1000;
  int seen = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (++seen >= warmup)
      learn(net, optimizer, xs[i], ys[i]);
  }
}

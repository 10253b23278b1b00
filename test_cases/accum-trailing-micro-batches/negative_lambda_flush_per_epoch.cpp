// RUN: %check_gradlint %s
// A lambda applies the update; it is called at each boundary and once more after the data loop
// when micro-batches are left over, before the next epoch's zero_grad().
#include <torch/torch.h>

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(net->parameters(), 0.01);
  const int N = 4;
  auto update = [&]() {
    opt.step();
    opt.zero_grad();
  };
  for (int ep = 0; ep < epochs; ++ep) {
    opt.zero_grad();
    int pending = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / N;
      loss.backward();
      if (++pending == N) {
        update();
        pending = 0;
      }
    }
    if (pending > 0)
      update();
  }
}

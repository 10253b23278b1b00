// RUN: %check_gradlint %s
// Window start guard spelled with the counter that the boundary resets:
// `if (micro == 0)` before backward() is the first micro-batch of each window.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (micro == 0)
      opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;
    loss.backward();
    if (++micro == N) {
      opt.step();
      micro = 0;
    }
  }
}

// RUN: %check_gradlint %s
// In-place `loss.div_(N)` on the loss before backward(), and `aux.mul(1.0 / N)` for
// the second term: both losses are scaled by 1/N.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto out = model->forward(xs[i]);
    auto loss = torch::mse_loss(out, ys[i]);
    loss.div_(N);
    loss.backward({}, /*retain_graph=*/true);
    auto aux = out.abs().mean();
    aux.mul(1.0 / N).backward();
    if ((i + 1) % N == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

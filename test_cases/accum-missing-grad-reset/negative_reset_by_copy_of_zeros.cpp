// RUN: %check_gradlint %s
// After step() every gradient is overwritten in place with zeros
// (`copy_(torch::zeros_like(p))`): that is a reset.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      for (auto &p : model->parameters())
        p.mutable_grad().copy_(torch::zeros_like(p));
    }
  }
}

// RUN: %check_gradlint %s
// The accumulation was removed: step() runs after every backward(), so a leftover
// `wd / grad_accum` in the options is not an accumulation bug.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int grad_accum) {
  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.05).weight_decay(0.2 / grad_accum));
  for (size_t i = 0; i < xs.size(); ++i) {
    sgd.zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    sgd.step();
  }
}

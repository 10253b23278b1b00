// RUN: %check_gradlint %s
// No accumulation window: step() runs after every backward(). (The gradients are never
// reset here either, but that is not an accumulation bug this check is about.)
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    opt.step();
  }
}

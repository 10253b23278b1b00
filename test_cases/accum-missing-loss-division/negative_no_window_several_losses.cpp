// RUN: %check_gradlint %s
// Several losses back-propagated and summed on purpose, one step() per iteration:
// no accumulation window, so no division is needed.
#include <torch/torch.h>

void train(torch::nn::Linear encoder, torch::nn::Linear head, torch::optim::Adam &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto z = encoder->forward(xs[i]);
    auto task = torch::mse_loss(head->forward(z), ys[i]);
    task.backward({}, /*retain_graph=*/true);
    auto reg = z.pow(2).mean() * 0.01;
    reg.backward({}, /*retain_graph=*/true);
    torch::autograd::backward({z.abs().mean()});
    opt.step();
  }
}

// RUN: %check_gradlint %s
// One optimizer, two losses: both backward() calls feed the same window, which is
// reset at its start, before the first of them.
#include <torch/torch.h>

void train(torch::nn::Linear encoder, torch::nn::Linear head, torch::optim::SGD &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int accum) {
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i % accum == 0)
      opt.zero_grad();
    auto features = encoder->forward(xs[i]);
    auto task_loss = torch::mse_loss(head->forward(features), ys[i]) / accum;
    task_loss.backward({}, /*retain_graph=*/true);
    auto reg_loss = features.pow(2).mean() / accum;
    reg_loss.backward();
    if ((i + 1) % accum == 0)
      opt.step();
  }
}

// RUN: %check_gradlint %s
// Two phases in one function: the accumulation loop trains the backbone with the full
// decay; the probe's optimizer (divided decay) steps after every batch, with no window.
#include <torch/torch.h>

void train(torch::nn::Linear backbone, torch::nn::Linear probe, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::AdamW main_opt(backbone->parameters(),
                               torch::optim::AdamWOptions(1e-3).weight_decay(0.1));
  torch::optim::SGD probe_opt(probe->parameters(),
                              torch::optim::SGDOptions(0.01).weight_decay(0.2 / accum_steps));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(backbone->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      main_opt.step();
      main_opt.zero_grad();
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    probe_opt.zero_grad();
    auto features = backbone->forward(xs[i]).detach();
    auto loss = torch::mse_loss(probe->forward(features), ys[i]);
    loss.backward();
    probe_opt.step();
  }
}

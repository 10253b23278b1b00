// RUN: %check_gradlint %s
// A generic lambda (a template) defines the scaled loss in a variable; the call
// from the loop is followed into the lambda's instantiation.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::vector<torch::Tensor> &xs, int accum) {
  torch::optim::Adam opt(model->parameters());
  auto micro_step = [&](const auto &x) {
    torch::Tensor loss = model->forward(x).mean() / accum;
    loss.backward();
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    micro_step(xs[i]);
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

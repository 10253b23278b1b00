// RUN: %check_gradlint %s
// The boundary runs a user hook held in a std::function whose target is not known here
// (it is passed in by the caller): it may reset the gradients, so there is no finding.
#include <torch/torch.h>
#include <functional>

struct Hooks {
  std::function<void(torch::nn::Module &)> after_step;
};

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, const Hooks &hooks) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      if (hooks.after_step)
        hooks.after_step(*model);
    }
  }
}

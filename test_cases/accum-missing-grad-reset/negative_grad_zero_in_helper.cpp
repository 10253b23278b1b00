// RUN: %check_gradlint %s
// The reset is done by hand in a helper, clear_grads(), which zeroes every defined
// p.grad() in place; the loop calls it after step().
#include <torch/torch.h>

void clear_grads(torch::nn::Module &module) {
  for (auto &p : module.parameters()) {
    if (p.grad().defined())
      p.grad().zero_();
  }
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int64_t grad_accum_steps = 4;
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / grad_accum_steps;
    loss.backward();
    if ((i + 1) % grad_accum_steps == 0) {
      opt.step();
      clear_grads(*model);
    }
  }
}

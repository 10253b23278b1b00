// RUN: %check_gradlint %s
// The scheduler runs under its own period (`it % 500 == 0`), chosen by the code
// in micro-batches; that is not tied to the accumulation window.
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05));
  torch::optim::StepLR sched(opt, 1, 0.9);
  const int64_t accum = 4;
  for (int64_t it = 0; it < static_cast<int64_t>(xs.size()); ++it) {
    auto loss = torch::mse_loss(model->forward(xs[it]), ys[it]) / accum;
    loss.backward();
    if ((it + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
    if (it % 500 == 0)
      sched.step();
  }
}

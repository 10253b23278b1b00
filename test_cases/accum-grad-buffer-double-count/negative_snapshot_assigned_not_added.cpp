// RUN: %check_gradlint %s
// Look-alike: every micro-batch keeps a copy of the current .grad (assigned, not added) so a
// checkpoint can hold it; written back at the boundary it is just the accumulated gradient.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> snapshot(params.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      snapshot[k] = params[k].grad().clone();
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = snapshot[k];
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

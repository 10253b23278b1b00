// RUN: %check_gradlint %s
// A lambda moves the gradients into the buffer: it adds each .grad and then zeroes it, so the
// buffer sees every micro-batch exactly once before the boundary writes it back.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(5e-4));
  const int accum_steps = 3;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> stash;
  for (const auto &p : params) stash.push_back(torch::zeros_like(p));

  auto move_grads = [&]() {
    for (size_t i = 0; i < params.size(); ++i) {
      stash[i].add_(params[i].grad());
      params[i].mutable_grad().zero_();
    }
  };

  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::huber_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    move_grads();
    if ((i + 1) % accum_steps == 0) {
      for (size_t j = 0; j < params.size(); ++j) {
        params[j].mutable_grad() = stash[j] / accum_steps;
        stash[j].zero_();
      }
      adam.step();
      adam.zero_grad();
    }
  }
}

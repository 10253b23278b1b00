// RUN: %check_gradlint %s
// A hand-written FP32 accumulator: each micro-batch's .grad is added into a
// buffer and then reset; the buffer (divided by N) is written back into .grad
// before step(): the division by N happens there, so the loss needs none.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> buffer;
  for (const auto &p : params)
    buffer.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k)
      buffer[k] += params[k].grad();
    optimizer.zero_grad();
    if ((i + 1) % accum_steps == 0) {
      for (size_t k = 0; k < params.size(); ++k)
        params[k].mutable_grad() = buffer[k] / accum_steps;
      optimizer.step();
      optimizer.zero_grad();
      for (auto &b : buffer)
        b.zero_();
    }
  }
}

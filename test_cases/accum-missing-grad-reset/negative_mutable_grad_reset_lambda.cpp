// RUN: %check_gradlint %s
// A lambda drops the gradients with p.mutable_grad().reset() (set-to-none) and the loop
// calls it after every boundary step().
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets) {
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(3e-4));
  const int micro = 2;
  auto params = model->parameters();
  auto drop_grads = [&params]() {
    for (auto &p : params)
      p.mutable_grad().reset();
  };
  int counter = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / micro;
    loss.backward();
    if (++counter == micro) {
      opt.step();
      drop_grads();
      counter = 0;
    }
  }
}

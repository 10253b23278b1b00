// RUN: %check_gradlint %s
// The hook called after backward() is assigned two different lambdas, one of which
// resets the gradients; which one runs is not known from the code, so nothing is
// reported (no guess).
#include <functional>
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &xs, int accum, bool fresh_each_batch) {
  std::function<void()> after_backward;
  if (fresh_each_batch)
    after_backward = [&] { optimizer.zero_grad(); };
  else
    after_backward = [&] { std::cout << "accumulating\n"; };
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum() / accum;
    loss.backward();
    after_backward();
    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

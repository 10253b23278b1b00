// TRUTH: buggy: clip_grad_norm_(params, 0.5) after every backward() instead of once before step() (N=4, loss / accum correctly); expect a numerical effect only if a partial window sum's norm exceeds 0.5 — likely with a 0.5 limit and plain SGD, so probably confirmed.
#include <torch/torch.h>

#include <iostream>
#include <vector>

using torch::nn::utils::clip_grad_norm_;

int main() {
  auto model = torch::nn::Sequential(torch::nn::Linear(8, 16), torch::nn::ReLU(),
                                     torch::nn::Linear(16, 4));
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.1);

  std::vector<torch::Tensor> inputs, targets;
  for (int i = 0; i < 48; ++i) {
    inputs.push_back(torch::randn({4, 8}));
    targets.push_back(torch::randn({4, 4}) * 3.0);
  }

  const int accum = 4;
  const double max_grad_norm = 0.5;
  optimizer.zero_grad();
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto prediction = model->forward(inputs[i]);
    auto loss = torch::mse_loss(prediction, targets[i]) / accum;
    loss.backward();
    clip_grad_norm_(model->parameters(), max_grad_norm);

    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  std::cout << "done" << std::endl;
  return 0;
}

// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: binds only on the window's complete sum

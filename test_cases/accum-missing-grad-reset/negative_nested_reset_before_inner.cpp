// RUN: %check_gradlint %s
// Nested form: the gradients are reset before the inner loop over the window's N
// micro-batches, and step() follows the inner loop.
#include <torch/torch.h>

void train_chunks(torch::nn::Linear lin, const std::vector<torch::Tensor> &data,
                  const std::vector<torch::Tensor> &targets) {
  torch::optim::Adam optimizer(lin->parameters(), torch::optim::AdamOptions(5e-3));
  const int chunks = 3;
  const size_t updates = data.size() / 3;
  for (size_t u = 0; u < updates; ++u) {
    optimizer.zero_grad();
    for (int c = 0; c < chunks; ++c) {
      const size_t j = u * 3 + c;
      auto loss = torch::mse_loss(lin->forward(data[j]), targets[j]);
      (loss / chunks).backward();
    }
    optimizer.step();
  }
}

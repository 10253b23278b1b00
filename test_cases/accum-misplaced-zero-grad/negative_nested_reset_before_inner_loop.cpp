// RUN: %check_gradlint %s
// Nested window: the reset runs once per outer batch, before the inner loop over
// the chunks (the window), and step() follows the inner loop.
#include <torch/torch.h>

void train(torch::nn::Sequential model, torch::optim::AdamW &optimizer,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t pieces = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    optimizer.zero_grad();
    auto xs = batches[b].chunk(pieces);
    auto ys = targets[b].chunk(pieces);
    for (int64_t c = 0; c < pieces; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]);
      (loss / pieces).backward();
    }
    optimizer.step();
  }
}

// RUN: %check_gradlint %s
// Nested window: chunk losses summed, the gradients multiplied by 1/N after the inner
// loop and before step().
#include <torch/torch.h>

void train(torch::nn::Sequential model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c)
      torch::mse_loss(model->forward(xs[c]), ys[c]).backward();
    torch::NoGradGuard no_grad;
    for (auto &w : model->parameters())
      w.grad().mul_(1.0 / chunks);
    optimizer.step();
    optimizer.zero_grad();
  }
}

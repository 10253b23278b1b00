// RUN: %check_gradlint %s
// The inner loop runs over torch::split(batch, batch.size(0) / n): n pieces
// when n divides the batch, one more otherwise. The loss is divided by n; the
// code does not show whether the count is exactly n, so gradlint stays silent
// rather than guess. tensor_split(n) always gives n pieces.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &batches,
           int64_t n) {
  for (const auto &batch : batches) {
    for (const auto &piece : torch::split(batch, batch.size(0) / n)) {
      auto loss = model->forward(piece).pow(2).mean();
      (loss / n).backward();
    }
    opt.step();
    opt.zero_grad();
  }
}

void train_sections(torch::nn::Linear model, torch::optim::SGD &opt,
                    const std::vector<torch::Tensor> &batches, int64_t n) {
  for (const auto &batch : batches) {
    for (const auto &piece : batch.tensor_split(n)) {
      auto loss = model->forward(piece).pow(2).mean();
      loss.div(n).backward();
    }
    opt.step();
    opt.zero_grad();
  }
}

// RUN: %check_gradlint %s
// Nested window over a vector of k chunks: the inner range-for runs k times and
// each chunk's loss is divided by k, the chunk count written where the vector
// was made. Correct.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t k = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto chunks = batches[b].chunk(k);
    auto labels = targets[b].chunk(k);
    size_t j = 0;
    for (auto &c : chunks) {
      auto loss = torch::mse_loss(model->forward(c), labels[j++]);
      (loss / k).backward();
    }
    opt.step();
    opt.zero_grad();
  }
}

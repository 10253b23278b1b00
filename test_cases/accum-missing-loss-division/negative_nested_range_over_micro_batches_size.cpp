// RUN: %check_gradlint %s
// A lambda runs the inner loop over the micro-batches of one group and divides
// each loss by the group's size(): the trip count of that very loop. Correct.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<std::vector<torch::Tensor>> &groups) {
  auto accumulate = [&](const std::vector<torch::Tensor> &xs) {
    for (const auto &x : xs) {
      auto loss = model->forward(x).pow(2).mean();
      (loss / static_cast<double>(xs.size())).backward();
    }
  };
  for (const auto &xs : groups) {
    accumulate(xs);
    opt.step();
    opt.zero_grad();
  }
}

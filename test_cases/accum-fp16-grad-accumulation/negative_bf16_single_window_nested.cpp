// RUN: %check_gradlint %s
// bfloat16 model with a nested loop whose inner loop steps after every micro-batch: each
// step applies one gradient and zero_grad() clears it, so there is no half-precision sum.
#include <torch/torch.h>

void train(torch::nn::Linear &layer, const std::vector<std::vector<torch::Tensor>> &shards,
           const std::vector<std::vector<torch::Tensor>> &labels) {
  layer->to(torch::kBFloat16);
  torch::optim::SGD opt(layer->parameters(), 0.02);
  for (size_t s = 0; s < shards.size(); ++s) {
    for (size_t m = 0; m < shards[s].size(); ++m) {
      auto loss = torch::mse_loss(layer->forward(shards[s][m].to(torch::kBFloat16)),
                                  labels[s][m].to(torch::kBFloat16));
      loss.backward();
      opt.step();
      opt.zero_grad();
    }
  }
}

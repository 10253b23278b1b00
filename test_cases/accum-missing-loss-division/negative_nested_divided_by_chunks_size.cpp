// RUN: %check_gradlint %s
// A trainer member: the inner loop indexes the chunk vector up to its size()
// and the loss is divided by the same chunks.size(), cast to double. Correct.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int64_t micro_batches)
      : net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)),
        micro_batches_(micro_batches) {}

  void fit(const std::vector<torch::Tensor> &batches) {
    for (const auto &batch : batches) {
      std::vector<torch::Tensor> chunks = batch.chunk(micro_batches_);
      for (size_t c = 0; c < chunks.size(); ++c) {
        auto loss = net_->forward(chunks[c]).pow(2).mean();
        (loss / static_cast<double>(chunks.size())).backward();
      }
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear net_;
  torch::optim::SGD optimizer_;
  int64_t micro_batches_;
};

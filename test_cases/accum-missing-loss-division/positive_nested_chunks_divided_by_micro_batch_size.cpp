// RUN: %check_gradlint %s
// A trainer member over a vector of k chunks divides each chunk's loss by the
// chunk's batch size, not by the number of chunks: the window still sums k
// micro-batch gradients.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int64_t k)
      : net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)), k_(k) {}

  void fit(const std::vector<torch::Tensor> &batches) {
    for (const auto &batch : batches) {
      auto chunks = batch.chunk(k_);
      for (auto &c : chunks) {
        auto summed = net_->forward(c).pow(2).sum();
        (summed / c.size(0)).backward();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: loss passed to backward() is not divided by the accumulation steps (N = k_){{.*}} [accum-missing-loss-division]
        // CHECK-FIXES: {{^}}        auto summed = net_->forward(c).pow(2).sum();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        (((summed / c.size(0))) / k_).backward();{{$}}
      }
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear net_;
  torch::optim::SGD optimizer_;
  int64_t k_;
};

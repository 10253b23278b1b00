// RUN: %check_gradlint %s
// A trainer that converts the model to float64 in its constructor: wider than float32,
// so accumulating 4 micro-batches in .grad loses nothing.
#include <torch/torch.h>

class PreciseTrainer {
public:
  explicit PreciseTrainer(torch::nn::Linear net) : net_(net), opt_(net->parameters(), 0.01) {
    net_->to(torch::kDouble);
  }

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i].to(torch::kDouble)), ys[i].to(torch::kDouble)) / kAccum;
      loss.backward();
      if (++count_ % kAccum == 0) {
        opt_.step();
        opt_.zero_grad();
      }
    }
  }

private:
  static constexpr int kAccum = 4;
  torch::nn::Linear net_;
  torch::optim::SGD opt_;
  int count_ = 0;
};

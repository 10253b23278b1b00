// RUN: %check_gradlint %s
// Trainer with the epoch loop inside fit() and a member step counter that is never reset per
// epoch and no zero_grad() between epochs: windows straddle epoch boundaries, nothing is lost.
#include <torch/torch.h>

class Trainer {
 public:
  explicit Trainer(torch::nn::Linear net) : net_(net), opt_(net->parameters(), 0.05) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys,
           int epochs) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      for (size_t i = 0; i < xs.size(); ++i) {
        auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / kAccum;
        loss.backward();
        ++micro_steps_;
        if (micro_steps_ % kAccum == 0) {
          opt_.step();
          opt_.zero_grad();
          ++optimizer_steps_;
        }
      }
      std::cout << "epoch " << epoch << ": " << optimizer_steps_ << " updates\n";
    }
  }

 private:
  static constexpr int kAccum = 4;
  torch::nn::Linear net_;
  torch::optim::SGD opt_;
  int64_t micro_steps_ = 0;
  int64_t optimizer_steps_ = 0;
};

// The same correct scaling written as a method call on the loss, with N
// counted by a member of a trainer class.
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: matches the large-batch reference
// CONFIRM-FIGURE: accum-missing-loss-division parameter_error_as_written < 1e-5
#include <torch/torch.h>

class Trainer {
public:
  explicit Trainer(torch::nn::Linear net)
      : net_(net), opt_(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9)) {}
  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      torch::Tensor loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);
      loss.mul(0.125).backward();
      if (++pending_ == kSteps) {
        opt_.step();
        opt_.zero_grad();
        pending_ = 0;
      }
    }
  }

private:
  static constexpr int kSteps = 8;
  torch::nn::Linear net_;
  torch::optim::SGD opt_;
  int pending_ = 0;
};

// RUN: %check_gradlint %s
// Look-alike: an exponential moving average of the gradients kept for monitoring in a trainer
// class; it reads .grad every micro-batch but never feeds the optimizer.
#include <torch/torch.h>

class MonitoredTrainer {
 public:
  explicit MonitoredTrainer(torch::nn::Linear model)
      : model_(model), opt_(model->parameters(), torch::optim::AdamOptions(1e-3)) {
    for (auto &p : model_->parameters()) ema_.push_back(torch::zeros_like(p));
  }

  void step_batch(const torch::Tensor &x, const torch::Tensor &y, int64_t index) {
    auto loss = torch::mse_loss(model_->forward(x), y) / kAccum;
    loss.backward();
    auto params = model_->parameters();
    for (size_t i = 0; i < params.size(); ++i) {
      ema_[i] = 0.9 * ema_[i] + 0.1 * params[i].grad();
    }
    if ((index + 1) % kAccum == 0) {
      opt_.step();
      opt_.zero_grad();
    }
  }

  double ema_norm() const {
    double total = 0.0;
    for (const auto &e : ema_) total += e.norm().item<double>();
    return total;
  }

 private:
  static constexpr int64_t kAccum = 2;
  torch::nn::Linear model_;
  torch::optim::Adam opt_;
  std::vector<torch::Tensor> ema_;
};

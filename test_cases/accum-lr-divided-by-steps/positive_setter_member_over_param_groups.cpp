// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// A trainer anneals its Adam learning rate through a setter member that
// writes every param group; the caller hands it the rate divided by the
// accumulation steps.
#include <torch/torch.h>

class Annealer {
public:
  Annealer(torch::nn::Linear net, int accum)
      : net_(net), accum_(accum), adam_(net->parameters(), torch::optim::AdamOptions(3e-4)) {}

  void set_rate(double rate) {
    for (auto &group : adam_.param_groups())
      static_cast<torch::optim::AdamOptions &>(group.options()).lr(rate);
  }

  void run(const std::vector<torch::Tensor> &xs, int updates) {
    for (int u = 0; u < updates; ++u) {
      set_rate((1.0 - static_cast<double>(u) / updates) * 3e-4 / accum_);
      // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = accum_){{.*}} [accum-lr-divided-by-steps]
      for (size_t i = 0; i < xs.size(); ++i) {
        (net_->forward(xs[i]).pow(2).mean() / accum_).backward();
        if ((i + 1) % accum_ == 0) {
          adam_.step();
          adam_.zero_grad();
        }
      }
      adam_.step(); // the update's last, short window
      adam_.zero_grad();
    }
  }

private:
  torch::nn::Linear net_;
  int accum_;
  torch::optim::Adam adam_;
};

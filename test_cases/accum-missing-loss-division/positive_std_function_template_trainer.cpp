// RUN: %check_gradlint %s
// A trainer template whose backward() runs through a std::function member assigned
// in the constructor body; the loss is not divided by the accumulation steps.
#include <functional>
#include <torch/torch.h>

template <typename Optimizer> class Trainer {
public:
  Trainer(torch::nn::Linear model, Optimizer &optimizer, int accum)
      : model_(model), optimizer_(optimizer), accum_(accum) {
    backward_ = [this](const torch::Tensor &x, const torch::Tensor &y) {
      auto loss = torch::mse_loss(model_->forward(x), y);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    };
  }

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      backward_(xs[i], ys[i]);
      if ((i + 1) % accum_ == 0) {
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear model_;
  Optimizer &optimizer_;
  int accum_;
  std::function<void(const torch::Tensor &, const torch::Tensor &)> backward_;
};

template class Trainer<torch::optim::SGD>;

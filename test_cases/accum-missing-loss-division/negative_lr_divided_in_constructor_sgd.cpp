// RUN: %check_gradlint %s
// The trainer's constructor stores the learning rate already divided by the
// accumulation steps, and the same constructor parameter sets the window. With
// SGD, lr / N applied to the summed gradient is the large-batch update: correct.
#include <torch/torch.h>

class DenoiserTrainer {
public:
  DenoiserTrainer(torch::nn::Sequential net, double base_lr, int accumulation)
      : net_(std::move(net)), accumulation_(accumulation) {
    lr_ = base_lr / accumulation;
  }

  void epoch(const std::vector<torch::Tensor> &noisy, const std::vector<torch::Tensor> &clean) {
    torch::optim::SGD sgd(net_->parameters(), torch::optim::SGDOptions(lr_).momentum(0.9));
    for (size_t k = 0; k < noisy.size(); ++k) {
      torch::Tensor residual = net_->forward(noisy[k]) - clean[k];
      residual.pow(2).mean().backward();
      if ((k + 1) % accumulation_ == 0) {
        sgd.step();
        sgd.zero_grad();
      }
    }
  }

private:
  torch::nn::Sequential net_;
  double lr_ = 0.0;
  int accumulation_;
};

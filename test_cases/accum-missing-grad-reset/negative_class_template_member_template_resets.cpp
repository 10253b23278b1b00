// RUN: %check_gradlint %s
// The same shape of solver as a class template with a templated fit(): the boundary steps and
// clears the gradients, and the derived class's loss hook is an ordinary mean.
#include <torch/torch.h>

template <typename Opt>
class Trainer {
public:
  Trainer(torch::nn::Linear head, int accum) : head_(head), opt_(head->parameters(), 0.1), accum_(accum) {}
  virtual ~Trainer() = default;
  virtual torch::Tensor criterion(const torch::Tensor &pred, const torch::Tensor &y) = 0;

  template <typename Batches>
  void run(const Batches &batches) {
    int micro = 0;
    for (const auto &b : batches) {
      (criterion(head_->forward(b.data), b.target) / accum_).backward();
      if (++micro == accum_) {
        opt_.step();
        opt_.zero_grad();
        micro = 0;
      }
    }
  }

protected:
  torch::nn::Linear head_;
  Opt opt_;
  int accum_;
};

struct Regression : Trainer<torch::optim::SGD> {
  using Trainer<torch::optim::SGD>::Trainer;
  torch::Tensor criterion(const torch::Tensor &pred, const torch::Tensor &y) override {
    return torch::l1_loss(pred, y);
  }
};

void go(const std::vector<torch::data::Example<>> &data) {
  Regression regression(torch::nn::Linear(5, 1), 8);
  regression.run(data);
}

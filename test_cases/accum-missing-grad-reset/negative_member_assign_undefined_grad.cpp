// RUN: %check_gradlint %s
// Trainer class whose member function reset_grads() assigns an undefined tensor to every
// p.mutable_grad(); train_step() calls it after step() at the boundary.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, int accum)
      : model_(model), optimizer_(model->parameters(), torch::optim::SGDOptions(0.05)),
        accum_(accum) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    if (++micro_ % accum_ == 0) {
      optimizer_.step();
      reset_grads();
    }
  }

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i)
      train_step(xs[i], ys[i]);
  }

private:
  void reset_grads() {
    for (auto &p : model_->parameters())
      p.mutable_grad() = torch::Tensor();
  }

  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
  int accum_;
  int micro_ = 0;
};

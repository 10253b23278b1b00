// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The trainer base class leaves the loss to a pure virtual method; the one subclass in
// this file defines it (it only computes a loss). The loop divides by N and steps at the
// boundary, but nothing ever clears .grad.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, int updates_every)
      : net_(net), sgd_(net->parameters(), torch::optim::SGDOptions(0.05)),
        every_(updates_every) {}
  virtual ~Trainer() = default;

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = objective(net_->forward(xs[i]), ys[i]) / every_;
      loss.backward();
      if ((i + 1) % every_ == 0)
        sgd_.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}        sgd_.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}        sgd_.zero_grad();{{$}}
    }
  }

protected:
  virtual torch::Tensor objective(const torch::Tensor &pred, const torch::Tensor &target) = 0;

  torch::nn::Linear net_;
  torch::optim::SGD sgd_;
  int every_;
};

class SquaredError : public Trainer {
public:
  using Trainer::Trainer;

protected:
  torch::Tensor objective(const torch::Tensor &pred, const torch::Tensor &target) override {
    return (pred - target).pow(2).mean();
  }
};

void run(torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  SquaredError trainer(net, 4);
  trainer.fit(xs, ys);
}

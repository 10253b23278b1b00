// RUN: %check_gradlint %s
// The base engine divides the loss only when the model does not normalise it itself. The flag is
// taken from the network when the engine is built, and this network always answers yes, yet its
// loss is a plain batch mean: nothing divides it by the accumulation steps.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(10, 3)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc->forward(x); }
  bool normalises_loss() const { return true; }
  torch::nn::Linear fc{nullptr};
};

class Engine {
public:
  Engine(std::shared_ptr<Net> net, int accum)
      : net_(std::move(net)), sgd_(net_->parameters(), 0.1), accum_(accum) {
    self_normalised_ = net_->normalises_loss();
  }
  virtual ~Engine() = default;

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      micro_step(xs[i], ys[i]);
      if ((i + 1) % accum_ == 0) {
        sgd_.step();
        sgd_.zero_grad();
      }
    }
  }

protected:
  virtual torch::Tensor criterion(const torch::Tensor &x, const torch::Tensor &y) = 0;

  void micro_step(const torch::Tensor &x, const torch::Tensor &y) {
    torch::Tensor loss = criterion(x, y);
    if (!self_normalised_)
      loss = loss / accum_;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps{{.*}} [accum-missing-loss-division]
  }

  std::shared_ptr<Net> net_;
  torch::optim::SGD sgd_;
  int accum_;
  bool self_normalised_ = false;
};

class Classifier : public Engine {
public:
  using Engine::Engine;

protected:
  torch::Tensor criterion(const torch::Tensor &x, const torch::Tensor &y) override {
    return torch::cross_entropy_loss(net_->forward(x), y);
  }
};

void run(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  Classifier classifier(std::make_shared<Net>(), 4);
  classifier.epoch(xs, ys);
}

// RUN: %check_gradlint %s
// The base engine takes the "already normalised" flag from the network, but the derived engine
// computes its own loss and turns the flag off in its constructor, so the base divides the loss.
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
      : net_(std::move(net)), sgd_(net_->parameters(), 0.1), accum_(accum),
        self_normalised_(net_->normalises_loss()) {}
  virtual ~Engine() = default;

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      torch::Tensor loss = criterion(xs[i], ys[i]);
      if (!self_normalised_)
        loss = loss / accum_;
      loss.backward();
      if ((i + 1) % accum_ == 0) {
        sgd_.step();
        sgd_.zero_grad();
      }
    }
  }

protected:
  virtual torch::Tensor criterion(const torch::Tensor &x, const torch::Tensor &y) = 0;

  std::shared_ptr<Net> net_;
  torch::optim::SGD sgd_;
  int accum_;
  bool self_normalised_ = true;
};

class MarginEngine : public Engine {
public:
  MarginEngine(std::shared_ptr<Net> net, int accum) : Engine(std::move(net), accum) {
    self_normalised_ = false;
  }

protected:
  torch::Tensor criterion(const torch::Tensor &x, const torch::Tensor &y) override {
    return torch::multi_margin_loss(net_->forward(x), y);
  }
};

void run(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  MarginEngine engine(std::make_shared<Net>(), 8);
  engine.epoch(xs, ys);
}

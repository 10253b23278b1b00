// RUN: %check_gradlint %s
// The trainer computes its loss through a std::function criterion handed to
// its constructor; the lambda behind it divides by the window's micro-batch
// count, so the loss reaching backward() is already 1/N of a micro-batch's.
#include <functional>
#include <torch/torch.h>

using Criterion = std::function<torch::Tensor(const torch::Tensor &, const torch::Tensor &)>;

class WindowedTrainer {
public:
  WindowedTrainer(torch::nn::Linear net, Criterion criterion, int window)
      : net_(net), criterion_(std::move(criterion)), window_(window),
        sgd_(net->parameters(), torch::optim::SGDOptions(0.05)) {}

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t k = 0; k < xs.size(); ++k) {
      torch::Tensor loss = criterion_(net_->forward(xs[k]), ys[k]);
      loss.backward();
      if ((k + 1) % window_ == 0) {
        sgd_.step();
        sgd_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear net_;
  Criterion criterion_;
  int window_;
  torch::optim::SGD sgd_;
};

void run(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int window) {
  Criterion averaged = [window](const torch::Tensor &out, const torch::Tensor &target) {
    return torch::huber_loss(out, target) / window;
  };
  WindowedTrainer trainer(torch::nn::Linear(6, 2), averaged, window);
  trainer.epoch(xs, ys);
}

// RUN: %check_gradlint %s
// backward() runs in a member called once per micro-batch, which also decides the window; the
// caller divided the loss it passes in. The scaling is read at the call site.
#include <torch/torch.h>

class Engine {
public:
  Engine(torch::nn::Linear model, int accumulate)
      : model_(model), sgd_(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9)),
        accumulate_(accumulate) {}

  void train(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]) / accumulate_;
      backward_step(loss, i);
    }
  }

private:
  void backward_step(const torch::Tensor &loss, size_t index) {
    loss.backward();
    if ((index + 1) % accumulate_ == 0) {
      sgd_.step();
      sgd_.zero_grad();
    }
  }

  torch::nn::Linear model_;
  torch::optim::SGD sgd_;
  int accumulate_;
};

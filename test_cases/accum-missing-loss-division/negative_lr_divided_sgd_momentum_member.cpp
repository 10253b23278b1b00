// RUN: %check_gradlint %s
// A trainer whose SGD with momentum gets lr / accum_steps_: the momentum buffer
// is a running sum of gradients, linear in them, so dividing the learning rate
// is still the same as dividing the loss. No missing division.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear net, double lr, int accum_steps)
      : net_(net), accum_steps_(accum_steps),
        optimizer_(net->parameters(), torch::optim::SGDOptions(lr / accum_steps_).momentum(0.9)) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);
      loss.backward();
      if ((i + 1) % accum_steps_ == 0) {
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear net_;
  int accum_steps_;
  torch::optim::SGD optimizer_;
};

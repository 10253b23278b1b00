// RUN: %check_gradlint %s
// DQN-style agent: once the replay memory holds more than kCapacity transitions,
// learn() runs (zero_grad, backward, step) on every iteration. The counter is only
// ever incremented, so the threshold is no accumulation window.
#include <torch/torch.h>

class Agent {
public:
  explicit Agent(torch::nn::Linear q)
      : q_(q), optimizer_(q->parameters(), torch::optim::AdamOptions(1e-3)) {}

  void learn() {
    optimizer_.zero_grad();
    auto loss = torch::mse_loss(q_->forward(torch::randn({32, 4})), torch::zeros({32, 4}));
    loss.backward();
    optimizer_.step();
  }

  void remember() { ++memory_counter_; }

  void run(int episodes) {
    for (int e = 0; e < episodes; ++e) {
      remember();
      if (memory_counter_ > kCapacity)
        learn();
    }
  }

private:
  static constexpr int kCapacity = 64;
  torch::nn::Linear q_;
  torch::optim::Adam optimizer_;
  int memory_counter_ = 0;
};

// A learner that counts down the micro-batches left in its window. The member
// starts at 0 where it is declared; the constructor's body sets it from the
// settings it is given, and the update method reloads it after each step().
// The loss is not divided by the window's length.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed: update 6\.0[0-9]*x the large-batch update
#include <torch/torch.h>

struct LearnerSettings {
  double rate = 0.02;
  int micro_batches = 6;
};

class Learner {
public:
  Learner(torch::nn::Sequential net, LearnerSettings settings)
      : net_(net), settings_(settings),
        sgd_(net->parameters(), torch::optim::SGDOptions(settings.rate)) {
    left_ = settings_.micro_batches;
  }

  void observe(const torch::Tensor &x, const torch::Tensor &y) {
    torch::Tensor loss = torch::smooth_l1_loss(net_->forward(x), y);
    loss.backward();
    if (--left_ == 0) {
      sgd_.step();
      sgd_.zero_grad();
      left_ = settings_.micro_batches;
    }
  }

private:
  torch::nn::Sequential net_;
  LearnerSettings settings_;
  torch::optim::SGD sgd_;
  int left_ = 0;
};

int main() {
  Learner learner(torch::nn::Sequential(torch::nn::Linear(8, 4)), LearnerSettings{});
  for (int i = 0; i < 60; ++i)
    learner.observe(torch::randn({4, 8}), torch::randn({4, 4}));
}

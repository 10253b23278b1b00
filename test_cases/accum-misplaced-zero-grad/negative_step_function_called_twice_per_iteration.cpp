// RUN: %check_gradlint %s
// A replay agent's update() holds its own window: it resets at the window start (before
// its backward()), and steps when its call counter reaches N. The game loop calls it twice
// per frame (a short update, then sometimes a replay update); each call is one micro-batch,
// so the second call's reset is at the start of its own window, not after "the" backward.
#include <torch/torch.h>

class Agent {
public:
  Agent(torch::nn::Sequential q, int window)
      : q_(q), opt_(q->parameters(), torch::optim::AdamOptions(1e-3)), window_(window) {}

  void update(const torch::Tensor &states, const torch::Tensor &targets) {
    if (calls_ == 0)
      opt_.zero_grad();
    auto loss = torch::smooth_l1_loss(q_->forward(states), targets);
    (loss / window_).backward();
    if (++calls_ == window_) {
      opt_.step();
      calls_ = 0;
    }
  }

private:
  torch::nn::Sequential q_;
  torch::optim::Adam opt_;
  int window_;
  int calls_ = 0;
};

void play(Agent &agent, const std::vector<torch::Tensor> &frames,
          const std::vector<torch::Tensor> &values) {
  for (size_t f = 0; f < frames.size(); ++f) {
    agent.update(frames[f], values[f]);
    if (f % 8 == 7)
      agent.update(frames[f - 7], values[f - 7]);
  }
}

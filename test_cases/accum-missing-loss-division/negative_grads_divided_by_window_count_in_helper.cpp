// RUN: %check_gradlint %s
// The undivided losses are summed in .grad and a helper called at the boundary divides the
// gradients by the number of micro-batches the window actually held (a run-time count,
// shorter for the last window): the large-batch mean.
#include <torch/torch.h>

struct Policy : torch::nn::Module {
  Policy() : body(register_module("body", torch::nn::Linear(4, 2))) {}
  torch::nn::Linear body;
};

void apply_window(Policy &policy, torch::optim::Adam &adam, int64_t held) {
  for (auto &p : policy.parameters())
    if (p.grad().defined())
      p.grad().mul_(1.0 / static_cast<double>(held));
  adam.step();
  adam.zero_grad();
}

void update(Policy &policy, torch::optim::Adam &adam, const std::vector<torch::Tensor> &obs,
            int every) {
  int64_t held = 0;
  for (size_t i = 0; i < obs.size(); ++i) {
    auto loss = policy.body->forward(obs[i]).logsumexp(1).mean();
    loss.backward();
    ++held;
    if ((i + 1) % every == 0 || i + 1 == obs.size()) {
      apply_window(policy, adam, held);
      held = 0;
    }
  }
}

// A hand-written guard whose step() returns early when the gradients are not
// finite (after dropping them), and otherwise steps. Nothing resets the
// gradients after a good step. The finiteness test is a value the interpreter
// does not know; neither branch holds the finding, so the run takes the
// branch that goes on to the step() after it, not the early return.
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: 2\.[0-9]+x
// CONFIRM-ASSUMED: accum-missing-grad-reset `!torch::isfinite(torch::cat(flat)).all().item<bool>()` (line 16) = false
#include <torch/torch.h>

class FiniteStep {
public:
  bool step(torch::optim::Optimizer &optimizer, std::vector<torch::Tensor> &params) {
    std::vector<torch::Tensor> flat;
    for (auto &p : params)
      flat.push_back(p.grad().view(-1));
    if (!torch::isfinite(torch::cat(flat)).all().item<bool>()) {
      optimizer.zero_grad();
      ++skipped_;
      return false;
    }
    optimizer.step();
    return true;
  }

private:
  int skipped_ = 0;
};

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  std::vector<torch::Tensor> params = net->parameters();
  FiniteStep guard;
  const int accumulation = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accumulation;
    loss.backward();
    if ((i + 1) % accumulation == 0)
      guard.step(sgd, params);
  }
}

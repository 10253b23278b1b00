// An actor-critic style update whose loss weighs two heads by 0.5 each and
// divides by N, and whose optimizer is never reset. The 0.5 is the code's own
// weighting, not the bug: the fixed loop carries it too, so the reference
// weighs each micro-batch by it as well (listed under assumptions), and what
// remains is the missing reset.
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: 2\.[0-9]+x
// CONFIRM-ASSUMED: accum-missing-grad-reset the reference's loss factor = 0.5
#include <torch/torch.h>

void update(torch::nn::Sequential net, const std::vector<torch::Tensor> &states,
            const std::vector<torch::Tensor> &returns) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.02));
  const int accumulation = 4;
  for (size_t i = 0; i < states.size(); ++i) {
    torch::Tensor out = net->forward(states[i]);
    torch::Tensor policy_loss = (out - returns[i]).pow(2).mean();
    torch::Tensor value_loss = out.abs().mean();
    torch::Tensor loss = 0.5 * (policy_loss + value_loss) / accumulation;
    loss.backward();
    if ((i + 1) % accumulation == 0)
      sgd.step();
  }
}

// Per-sample losses weighted through `torch::mul(loss, weights)` (the call
// form of `loss * weights`), then averaged, and never divided by N. The
// weights are data the interpreter does not follow: an opaque positive factor
// of 1, as for the operator form, so the missing division still shows.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, const std::vector<torch::Tensor> &weights) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  const int accumulation = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor per_sample = (net->forward(xs[i]) - ys[i]).pow(2).sum(1);
    torch::Tensor loss = torch::mul(per_sample, weights[i]).mean();
    loss.backward();
    if ((i + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

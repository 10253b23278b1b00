// RUN: %check_gradlint %s
// clip_grad_norm_ with an infinite limit runs on every micro-batch, but only
// to read the running gradient norm for the log: it never rescales anything.
#include <limits>
#include <torch/torch.h>

void train(torch::nn::Sequential net, torch::optim::AdamW &adamw, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, std::vector<double> &norms) {
  constexpr int kAccum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(net->forward(xs[i]), ys[i]) / kAccum).backward();
    norms.push_back(torch::nn::utils::clip_grad_norm_(net->parameters(), std::numeric_limits<double>::infinity()));
    if (i % kAccum == kAccum - 1) {
      adamw.step();
      adamw.zero_grad();
    }
  }
}

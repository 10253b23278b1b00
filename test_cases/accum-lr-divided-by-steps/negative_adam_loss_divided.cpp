// RUN: %check_gradlint %s
// The correct form for Adam: the learning rate is kept and the loss is divided
// by N before backward().
#include <torch/torch.h>

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  constexpr int64_t accum = 4;
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3).betas(std::make_tuple(0.9, 0.98)));
  for (int64_t step = 0; step < static_cast<int64_t>(xs.size()); ++step) {
    torch::Tensor loss = torch::mse_loss(net->forward(xs[step]), ys[step]).div(accum);
    loss.backward();
    if (step % accum == accum - 1) {
      opt.step();
      opt.zero_grad();
    }
  }
}

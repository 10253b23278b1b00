// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: stores a gradient where the interpreter does not follow it
// Lazily created slots (`if (!acc.defined()) acc = g.clone(); else acc += g;`): reported, but no
// fix-it, since a reset after the `else` add alone would leave the clone branch double-counting.
// The buffer slots start undefined and are created on first use (`if (!acc.defined())`); the
// later adds still take a .grad that holds all micro-batches since the last step.
#include <torch/torch.h>

void train_lazy(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
                const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> acc(params.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      if (!acc[k].defined()) {
        acc[k] = params[k].grad().clone();
      } else {
        acc[k] += params[k].grad();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      }
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = acc[k];
        acc[k] = torch::Tensor();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

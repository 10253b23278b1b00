// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: no fixed loop was run
// The gradient is first bound to a local (`const auto &g = p.grad()`) and then added, so there
// is no .grad() expression at the add for a fix-it to reset; the double count is the same.
// Without a fix-it --confirm has no fixed loop: the loop as written is compared with the reference.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 3;
  auto params = model->parameters();
  std::vector<torch::Tensor> buf;
  for (auto &p : params) buf.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      const auto &g = params[k].grad();
      buf[k] += g;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = buf[k] / accum;
        buf[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

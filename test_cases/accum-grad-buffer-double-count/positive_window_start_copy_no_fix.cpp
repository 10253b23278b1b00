// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: no fixed loop was run
// A window-start copy and adds in the `else` branch: reported without a fix-it (a reset after the
// add alone would not cover the copy).
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> buf;
  for (auto &p : params) buf.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      if (i % accum == 0) buf[k] = params[k].grad().clone(); else buf[k] += params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = buf[k].clone();
        buf[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

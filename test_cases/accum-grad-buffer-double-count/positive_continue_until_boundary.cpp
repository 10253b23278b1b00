// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// Early `continue` while the window is open. The buffer add sits before the continue, and the
// only zero_grad() is after step(), so each micro-batch is added once per later add too.
#include <torch/torch.h>

void run_training(torch::nn::Linear layer, const std::vector<torch::Tensor> &xs,
                  const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(layer->parameters(), 0.1);
  const int window = 2;
  std::vector<torch::Tensor> acc;
  for (const auto &p : layer->parameters()) {
    acc.push_back(torch::zeros_like(p));
  }
  for (int step = 0; step < static_cast<int>(xs.size()); ++step) {
    auto loss = torch::smooth_l1_loss(layer->forward(xs[step]), ys[step]) / window;
    loss.backward();
    auto params = layer->parameters();
    for (size_t n = 0; n < params.size(); ++n) {
      acc[n] += params[n].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      acc[n] += params[n].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[n].grad().zero_();{{$}}
    }
    if ((step + 1) % window != 0) {
      continue;
    }
    for (size_t n = 0; n < params.size(); ++n) {
      params[n].mutable_grad() = acc[n].clone();
      acc[n].zero_();
    }
    opt.step();
    opt.zero_grad();
  }
}

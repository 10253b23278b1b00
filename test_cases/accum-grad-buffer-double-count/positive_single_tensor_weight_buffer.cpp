// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: update [0-9.]+x the large-batch update
// One accumulator tensor for the weight of a linear probe only (no vector of buffers; the bias
// keeps plain .grad accumulation). weight.grad() is never cleared between the adds.
#include <torch/torch.h>

void fit_probe(torch::nn::Linear probe, const std::vector<torch::Tensor> &xs,
               const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(probe->parameters(), 0.1);
  const int accum = 4;
  torch::Tensor w_acc = torch::zeros_like(probe->weight);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(probe->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    w_acc += probe->weight.grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES: {{^}}    w_acc += probe->weight.grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    probe->weight.grad().zero_();{{$}}
    if ((i + 1) % accum == 0) {
      probe->weight.mutable_grad() = w_acc.clone();
      w_acc.zero_();
      opt.step();
      opt.zero_grad();
    }
  }
}

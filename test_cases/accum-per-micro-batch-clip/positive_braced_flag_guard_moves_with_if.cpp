// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds on the stand-in's gradients
// The clip sits in a braced `if (clip_gradients)` on every micro-batch; the condition has nothing
// to do with the window, so the `if` moves with the clip into the boundary branch (unsafe: the
// flag is then read at the boundary only).
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, bool clip_gradients) {
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (clip_gradients) {
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.5);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on {{.*}} [accum-per-micro-batch-clip]
    }
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (clip_gradients) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        torch::nn::utils::clip_grad_value_(model->parameters(), 0.5);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    if ((i + 1) % accum == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

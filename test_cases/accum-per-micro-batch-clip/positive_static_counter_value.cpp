// RUN: %check_gradlint %s
// A free step function keeps its window in a static counter; clip_grad_value_
// before the guard runs on every call (every micro-batch).
#include <torch/torch.h>

namespace utils = torch::nn::utils;

void step_fn(torch::nn::Linear &model, torch::optim::SGD &opt, const torch::Tensor &x,
             const torch::Tensor &y) {
  constexpr int kAccum = 2;
  static int counter = 0;
  torch::Tensor l = torch::mse_loss(model->forward(x), y) / kAccum;
  l.backward();
  utils::clip_grad_value_(model->parameters(), 0.1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
  // CHECK-FIXES: {{^}}  l.backward();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  counter++;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (counter % kAccum == 0) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}    utils::clip_grad_value_(model->parameters(), 0.1);{{$}}
  counter++;
  if (counter % kAccum == 0) {
    opt.step();
    opt.zero_grad();
  }
}

// RUN: %check_gradlint %s
// The window is kept by a countdown: `left` starts at N, drops by one per micro-batch and is
// set back to N where it reaches 0, the boundary. The clip runs before that test, on every
// micro-batch, so it rescales each partial sum of the window.
#include <torch/torch.h>
#include <vector>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &inputs, int epochs) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05));
  const int accumulation = 4;
  int left = accumulation;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (const auto &x : inputs) {
      (model->forward(x).pow(2).mean() / accumulation).backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on every micro-batch of an accumulation window of N = accumulation = 4{{.*}} [accum-per-micro-batch-clip]
      // CHECK-FIXES: {{^}}      (model->forward(x).pow(2).mean() / accumulation).backward();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      --left;{{$}}
      // CHECK-FIXES-NEXT: {{^}}      if (left == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}        torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      --left;
      if (left == 0) {
        sgd.step();
        sgd.zero_grad();
        left = accumulation;
      }
    }
  }
}

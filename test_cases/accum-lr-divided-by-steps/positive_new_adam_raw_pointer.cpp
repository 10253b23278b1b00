// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// A raw `new Adam(...)` with its learning rate divided by the batches per step.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &boards, int batches_per_step) {
  auto *adam = new torch::optim::Adam(net->parameters(), torch::optim::AdamOptions(2e-3 / batches_per_step));
  // CHECK-MESSAGES: :[[@LINE-1]]:89: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = batches_per_step){{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &boards, int batches_per_step) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto *adam = new torch::optim::Adam(net->parameters(), torch::optim::AdamOptions(2e-3));{{$}}
  for (size_t b = 0; b < boards.size(); ++b) {
    (net->forward(boards[b]).square().mean() / batches_per_step).backward();
    if ((b + 1) % batches_per_step == 0) {
      adam->step();
      adam->zero_grad();
    }
  }
  delete adam;
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync not-confirmed: binds only on the window's complete sum
// A backward helper averages the gradients over the ranks on the micro-batch that closes the
// window (like DDP outside no_sync()). The clip runs after every backward(): on the window's
// first micro-batches it clips each rank's local partial sum, before the all-reduce that the
// closing micro-batch runs.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

static void backward_and_sync(const torch::Tensor &loss, int accumulation, bool closing,
                              torch::nn::Linear &net, c10d::ProcessGroup &group) {
  (loss / accumulation).backward();
  if (!closing)
    return;
  for (auto &p : net->parameters()) {
    std::vector<torch::Tensor> one{p.grad()};
    group.allreduce(one)->wait();
    p.grad().div_(group.getSize());
  }
}

void train(c10d::ProcessGroup &group, torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  const int accumulation = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    const bool closing = (i + 1) % accumulation == 0;
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]);
    backward_and_sync(loss, accumulation, closing, net, group);
    torch::nn::utils::clip_grad_norm_(net->parameters(), 0.05);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: on the window's micro-batches before the last, gradient clipping runs before the gradient all-reduce at line {{[0-9]+}};{{.*}} [accum-clip-before-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: gradient clipping runs on every micro-batch{{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    backward_and_sync(loss, accumulation, closing, net, group);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (closing) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(net->parameters(), 0.05);{{$}}
    if (closing) {
      opt.step();
      opt.zero_grad();
    }
  }
}

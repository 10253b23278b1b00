// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
// A gradient hook on the output clamps the incoming gradient; it divides
// nothing, so the window of 6 micro-batches still sums 6 full gradients.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &rows,
         const std::vector<torch::Tensor> &targets) {
  constexpr int kMicroBatches = 6;
  for (size_t r = 0; r < rows.size(); ++r) {
    torch::Tensor out = net->forward(rows[r]);
    out.register_hook([](torch::Tensor incoming) { return incoming.clamp(-5.0, 5.0); });
    auto loss = torch::mse_loss(out, targets[r]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps (N = kMicroBatches = 6){{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(out, targets[r]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / kMicroBatches).backward();{{$}}
    if (r % kMicroBatches == kMicroBatches - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

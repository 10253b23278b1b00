// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds on the stand-in's gradients
// A range-for over the batches with a counter that reaches N; the clip runs on every micro-batch
// when a maximum norm is configured. The guarded clip moves before step() in the counter's branch.
#include <torch/torch.h>

struct Batch {
  torch::Tensor x;
  torch::Tensor y;
};

void fit(torch::nn::Linear &net, torch::optim::SGD &sgd, const std::vector<Batch> &batches,
         double max_norm) {
  const int window = 4;
  int seen = 0;
  for (const Batch &batch : batches) {
    auto loss = torch::mse_loss(net->forward(batch.x), batch.y) / window;
    loss.backward();
    if (max_norm > 0.0)
      torch::nn::utils::clip_grad_norm_(net->parameters(), max_norm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++seen == window) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (max_norm > 0.0){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        torch::nn::utils::clip_grad_norm_(net->parameters(), max_norm);{{$}}
    if (++seen == window) {
      sgd.step();
      sgd.zero_grad();
      seen = 0;
    }
  }
}

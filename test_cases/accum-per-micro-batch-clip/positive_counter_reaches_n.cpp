// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A micro-batch counter that reaches N (`if (++micro == N) { ...; micro = 0; }`)
// guards step(), but the clip above the guard runs on every micro-batch.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model, torch::optim::Optimizer &opt,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  constexpr int kMicroBatches = 4;
  int micro = 0;
  for (const auto &sample : data) {
    auto pred = model->forward(sample.first);
    auto scaled = torch::nll_loss(torch::log_softmax(pred, 1), sample.second).div(kMicroBatches);
    scaled.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0, 2.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    scaled.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++micro == kMicroBatches) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0, 2.0);{{$}}
    if (++micro == kMicroBatches) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}

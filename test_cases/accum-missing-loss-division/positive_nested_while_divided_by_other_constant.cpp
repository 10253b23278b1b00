// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: another constant factor
// The inner while loop counts m up to kMicroBatches (4) but the loss is
// multiplied by 1.0 / 8: the division does not match the window.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &batches) {
  const int kMicroBatches = 4;
  for (const auto &batch : batches) {
    auto pieces = batch.chunk(kMicroBatches);
    int m = 0;
    while (m < kMicroBatches) {
      auto loss = model->forward(pieces[m]).pow(2).mean() * (1.0 / 8);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps (N = kMicroBatches = 4){{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      auto loss = model->forward(pieces[m]).pow(2).mean() * (1.0 / 8);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / kMicroBatches).backward();{{$}}
      m++;
    }
    opt.step();
    opt.zero_grad();
  }
}

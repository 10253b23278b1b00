// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: another constant factor
// Each slice's mean loss is weighted by rows / kSliceRows: a share of one
// slice, not of the batch. It only evens out a short last slice; summed over
// the slices the loss is (batch rows / kSliceRows) times the batch mean.
#include <torch/torch.h>

void fit(torch::nn::Linear probe, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &batches,
         const std::vector<torch::Tensor> &labels) {
  constexpr int64_t kSliceRows = 16;
  for (size_t b = 0; b < batches.size(); ++b) {
    std::vector<torch::Tensor> slices = batches[b].split(kSliceRows);
    std::vector<torch::Tensor> answers = labels[b].split(kSliceRows);
    for (size_t s = 0; s < slices.size(); ++s) {
      const int64_t rows = slices[s].size(0);
      torch::Tensor loss = torch::mse_loss(probe->forward(slices[s]), answers[s]);
      (loss * (static_cast<double>(rows) / kSliceRows)).backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps (N = slices.size()); {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      torch::Tensor loss = torch::mse_loss(probe->forward(slices[s]), answers[s]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (((loss * (static_cast<double>(rows) / kSliceRows))) / static_cast<double>(slices.size())).backward();{{$}}
    }
    sgd.step();
    sgd.zero_grad();
  }
}

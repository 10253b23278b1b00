// RUN: %check_gradlint %s
// N is the number of chunks, a size_t: at::Scalar has no size_t constructor,
// so the fix-it divides by static_cast<double>(...) (`loss / chunks.size()`
// does not compile against the real LibTorch headers: ambiguous conversion).
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &batches) {
  for (const auto &batch : batches) {
    std::vector<torch::Tensor> chunks = batch.chunk(4);
    for (size_t c = 0; c < chunks.size(); ++c) {
      auto loss = model->forward(chunks[c]).pow(2).mean();
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      auto loss = model->forward(chunks[c]).pow(2).mean();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / static_cast<double>(chunks.size())).backward();{{$}}
    }
    opt.step();
    opt.zero_grad();
  }
}

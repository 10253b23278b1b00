// RUN: %check_gradlint %s
// Nested window: the inner loop over the chunks of one batch is the window and
// step() follows it; the chunk losses are not divided by the number of chunks.
#include <torch/torch.h>

void train(torch::nn::Sequential model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    optimizer.zero_grad();
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / chunks).backward();{{$}}
    }
    optimizer.step();
  }
}

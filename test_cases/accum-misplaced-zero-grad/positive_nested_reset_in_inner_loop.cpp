// RUN: %check_gradlint %s
// Nested window: the inner loop over chunks is the window, step() follows it.
// Resetting inside the inner loop keeps only the last chunk's gradient.
#include <torch/torch.h>

void train(torch::nn::Sequential model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      optimizer.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
      // CHECK-FIXES: {{^}}    for (int64_t c = 0; c < chunks; ++c) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;{{$}}
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;
      loss.backward();
    }
    optimizer.step();
    // CHECK-FIXES: {{^}}    optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    optimizer.zero_grad();{{$}}
  }
}

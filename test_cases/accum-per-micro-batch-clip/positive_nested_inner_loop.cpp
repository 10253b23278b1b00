// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// Nested window: the inner loop over the chunks of one batch is the window;
// clipping inside it clips every partial sum.
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::AdamW &optimizer,
           std::vector<torch::Tensor> &batches, std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
      // CHECK-FIXES: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-NEXT: {{^}}    }{{$}}
      // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);{{$}}
    }
    optimizer.step();
    optimizer.zero_grad();
  }
}

// RUN: %check_gradlint %s
// Nested window: after the inner loop (the boundary branch) the module's gradients
// are reset BEFORE step(), so step() applies no gradient at all.
#include <torch/torch.h>

void train(torch::nn::Sequential model, torch::optim::Adam &optimizer,
           const std::vector<torch::Tensor> &batches, const std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c)
      (torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks).backward();
    // CHECK-FIXES: {{^}}      (torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks).backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    model->zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
    model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs in the boundary branch before step() {{.*}} [accum-misplaced-zero-grad]
    optimizer.step();
  }
}

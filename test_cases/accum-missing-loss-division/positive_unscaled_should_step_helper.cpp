// RUN: %check_gradlint %s
// Helper predicate should_step(i, n) as the boundary guard; `(loss).backward()`
// is reported at its opening parenthesis.
#include <torch/torch.h>

static bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(torch::nn::Linear model, torch::optim::SGD sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int k = 8;
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    ((loss) / k).backward();{{$}}
    if (should_step(i, k)) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

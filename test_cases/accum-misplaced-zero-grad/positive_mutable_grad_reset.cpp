// RUN: %check_gradlint %s
// `p.mutable_grad().reset()` (set-to-none) on every micro-batch: it drops the
// gradients of the window just like zero_grad() (helper predicate guard).
#include <torch/torch.h>

bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(torch::nn::Linear model, torch::optim::SGD sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 8;
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    auto prediction = model->forward(xs[i]);
    for (torch::Tensor &w : model->parameters())
      w.mutable_grad().reset();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}    auto prediction = model->forward(xs[i]);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(prediction, ys[i]) * (1.0 / N);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (should_step(i, N)) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (torch::Tensor &w : model->parameters()){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        w.mutable_grad().reset();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(prediction, ys[i]) * (1.0 / N);
    loss.backward();
    if (should_step(i, N))
      sgd.step();
  }
}

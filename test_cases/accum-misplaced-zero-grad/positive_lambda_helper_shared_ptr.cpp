// RUN: %check_gradlint %s
// A lambda that only resets (through a reference bound to *shared_ptr) is called on
// every micro-batch: reported at the lambda call in the loop.
#include <torch/torch.h>

void train(torch::nn::Linear model, std::shared_ptr<torch::optim::Adam> opt_ptr,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  auto &o = *opt_ptr;
  auto clear = [&] { o.zero_grad(); };
  for (size_t i = 0; i < xs.size(); ++i) {
    clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % N == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt_ptr->step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      clear();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;
    loss.backward();
    if ((i + 1) % N == 0)
      opt_ptr->step();
  }
}

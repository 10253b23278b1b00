// RUN: %check_gradlint %s
// Optimizer held as std::unique_ptr<torch::optim::Optimizer> (base class, virtual
// step()); reset every micro-batch right after backward().
#include <memory>
#include <torch/torch.h>

void train(torch::nn::Linear model, std::unique_ptr<torch::optim::Optimizer> updater,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  constexpr int kSteps = 8;
  for (size_t n = 0; n < xs.size(); ++n) {
    auto loss = torch::mse_loss(model->forward(xs[n]), ys[n]) / kSteps;
    loss.backward();
    updater->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset {{.*}} [accum-misplaced-zero-grad]
    if (n % kSteps == kSteps - 1)
      updater->step();
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (n % kSteps == kSteps - 1) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      updater->step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      updater->zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  }
}

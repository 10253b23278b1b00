// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The boundary step() is the whole body of a brace-less `if`; there is no reset. The
// fix-it has to add braces so that zero_grad() stays inside the boundary branch.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0)
      opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    model->train();
  }
}

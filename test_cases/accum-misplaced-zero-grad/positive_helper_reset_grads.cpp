// RUN: %check_gradlint %s
// The reset lives in a helper that runs neither backward() nor step(); it is
// called on every micro-batch, so it is reported at the helper call.
#include <torch/torch.h>

static void reset_grads(torch::nn::Module &m) {
  for (auto &p : m.parameters())
    if (p.grad().defined())
      p.mutable_grad().zero_();
}

void train(std::shared_ptr<torch::nn::LinearImpl> model, torch::optim::SGD &sgd,
           const std::vector<torch::Tensor> &x, const std::vector<torch::Tensor> &y) {
  const int accum = 4;
  for (size_t i = 0; i < x.size(); ++i) {
    reset_grads(*model);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < x.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(x[i]), y[i]) / accum;{{$}}
    auto loss = torch::mse_loss(model->forward(x[i]), y[i]) / accum;
    loss.backward();
    const bool sync = (i + 1) % accum == 0;
    if (sync)
      sgd.step();
    // CHECK-FIXES-UNSAFE: {{^}}    const bool sync = (i + 1) % accum == 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (sync) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      reset_grads(*model);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

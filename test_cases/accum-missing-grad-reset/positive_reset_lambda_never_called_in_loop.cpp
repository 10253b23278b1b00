// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// A reset lambda exists but is only called once after training; inside the accumulation
// loop nothing clears .grad.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05));
  auto release_grads = [&model]() {
    for (auto &p : model->parameters())
      p.mutable_grad().reset();
  };
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    }
  }
  release_grads();
}

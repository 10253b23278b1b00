// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0\.125 as written vs 0\.5
// A helper builds the AdamW options and divides the decay by the accumulation
// steps the caller passes it; the boundary is held in a bool flag.
#include <torch/torch.h>

torch::optim::AdamWOptions make_adamw_options(double lr, double wd, int accumulation) {
  return torch::optim::AdamWOptions(lr).weight_decay(wd / accumulation);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}torch::optim::AdamWOptions make_adamw_options(double lr, double wd, int accumulation) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  return torch::optim::AdamWOptions(lr).weight_decay(wd);{{$}}
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accumulation = 4;
  torch::optim::AdamW adamw(model->parameters(), make_adamw_options(0.02, 0.5, accumulation));
  for (size_t i = 0; i < xs.size(); ++i) {
    const bool boundary = (i + 1) % accumulation == 0;
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accumulation;
    loss.backward();
    if (boundary) {
      adamw.step();
      adamw.zero_grad();
    }
  }
}

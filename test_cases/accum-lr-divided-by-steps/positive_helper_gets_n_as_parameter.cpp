// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// A static helper builds the AdamW options from the accumulation steps it is
// given and divides the learning rate by them.
#include <torch/torch.h>

static torch::optim::AdamWOptions make_options(double lr, int accumulation_steps) {
  return torch::optim::AdamWOptions(lr / accumulation_steps).weight_decay(0.05);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}static torch::optim::AdamWOptions make_options(double lr, int accumulation_steps) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  return torch::optim::AdamWOptions(lr).weight_decay(0.05);{{$}}
}

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  torch::optim::AdamW optimizer(model->parameters(), make_options(1e-3, accum));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

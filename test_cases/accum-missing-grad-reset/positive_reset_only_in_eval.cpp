// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The file has a zero_grad(), but in evaluate(), which the training loop never calls;
// the accumulation loop itself has no reset, so the windows still add up.
#include <torch/torch.h>

double evaluate(torch::nn::Linear model, torch::optim::Optimizer &opt, const torch::Tensor &x,
                const torch::Tensor &y) {
  opt.zero_grad();
  torch::NoGradGuard no_grad;
  return torch::mse_loss(model->forward(x), y).item<double>();
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-2));
  const int grad_accum = 4;
  int step = 0;
  for (const auto &x : xs) {
    auto loss = torch::mse_loss(model->forward(x), ys[step]) / grad_accum;
    loss.backward();
    step++;
    if (step % grad_accum == 0) {
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    }
  }
}

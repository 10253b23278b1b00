// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps not-executable: the fix-it changes nothing the runtime ran
// The effective learning rate is computed into a local first (`base_lr / accum`)
// and then handed to AdamWOptions; the boundary is `i % N == N - 1`. Only the options
// read the local, so the fix-it drops the division from its initializer; the runtime
// does not read base_lr, so the fixed loop changes nothing it ran (not-executable).
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys,
           double base_lr) {
  const int accum = 4;
  const double lr = base_lr / accum;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int accum = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  const double lr = base_lr;{{$}}
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(lr).weight_decay(0.0));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (i % accum == accum - 1) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

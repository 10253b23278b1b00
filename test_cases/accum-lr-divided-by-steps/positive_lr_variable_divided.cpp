// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// The effective learning rate is computed into a local first (`base_lr / accum`)
// and then handed to AdamWOptions; the boundary is `i % N == N - 1`. Only the options
// read the local, so the fix-it drops the division from its initializer; base_lr is not
// read, so a stand-in rate runs divided by N, as the model reads the division.
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

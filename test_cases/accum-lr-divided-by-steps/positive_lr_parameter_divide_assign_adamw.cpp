// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// The learning rate arrives as a parameter and is divided in place (`learning_rate /= N;`)
// before AdamW is built with it: the statement is deleted.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double learning_rate) {
  const int accumulation = 4;
  learning_rate /= accumulation;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: learning rate of an {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int accumulation = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(learning_rate));{{$}}
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(learning_rate));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accumulation;
    loss.backward();
    if ((i + 1) % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// The classic missing division (seed 002, pitfall 1): the window sums N micro-batch
// gradients, so step() applies N times the large-batch gradient.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accumulation_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accumulation_steps).backward();{{$}}
    if ((i + 1) % accumulation_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// AdamW with the learning rate divided by N and the weight decay kept: that is
// accum-lr-divided-by-steps' finding; the weight decay is fine.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::AdamW optimizer(
      model->parameters(), torch::optim::AdamWOptions(3e-3 / accum_steps).weight_decay(0.1));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  torch::optim::AdamW optimizer({{$}}
  // CHECK-FIXES-NEXT: {{^}}      model->parameters(), torch::optim::AdamWOptions(3e-3).weight_decay(0.1));{{$}}
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

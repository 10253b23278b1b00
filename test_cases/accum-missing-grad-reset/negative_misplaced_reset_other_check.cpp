// RUN: %check_gradlint %s
// A reset exists but in the wrong place (in the boundary branch before the last
// backward()); that is accum-misplaced-zero-grad's finding, not this check's.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    if ((i + 1) % accum == 0)
      opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: {{.*}} [accum-misplaced-zero-grad]
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0)
      opt.step();
  }
}

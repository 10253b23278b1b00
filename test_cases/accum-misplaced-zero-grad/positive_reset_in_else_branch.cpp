// RUN: %check_gradlint %s
// The reset is in the `else` of the boundary guard, after backward(): on every
// non-boundary micro-batch it wipes what the window has summed so far.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
    } else {
      opt.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset {{.*}} [accum-misplaced-zero-grad]
    }
  }
}

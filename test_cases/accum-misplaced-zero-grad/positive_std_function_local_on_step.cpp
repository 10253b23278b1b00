// RUN: %check_gradlint %s
// step() runs through a std::function assigned a lambda before the loop; the reset
// at the top of every micro-batch discards the earlier micro-batches of the window.
#include <functional>
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &xs, int accum) {
  std::function<void()> on_step;
  on_step = [&] { optimizer.step(); };
  for (size_t i = 0; i < xs.size(); ++i) {
    optimizer.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    auto loss = model->forward(xs[i]).sum() / accum;
    loss.backward();
    if ((i + 1) % accum == 0)
      on_step();
  }
}

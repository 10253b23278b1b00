// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A lambda runs one micro-batch (forward, backward, clip) and is called on
// every iteration; the clip inside it runs on every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::Adam &adam, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  auto micro_batch = [&](const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model->forward(x), y) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    micro_batch(xs[i], ys[i]);
    if ((i + 1) % accum_steps == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

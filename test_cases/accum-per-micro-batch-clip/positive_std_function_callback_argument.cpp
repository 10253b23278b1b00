// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// The loop lives in fit(), which calls a std::function parameter for each batch;
// the one caller passes a lambda that runs backward() and clips, so the clipping
// runs on every micro-batch of the window.
#include <functional>
#include <torch/torch.h>

constexpr int kAccum = 8;

void fit(const std::vector<torch::Tensor> &xs, torch::optim::SGD &optimizer,
         const std::function<void(const torch::Tensor &)> &micro_batch) {
  for (size_t i = 0; i < xs.size(); ++i) {
    micro_batch(xs[i]);
    if ((i + 1) % kAccum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &xs) {
  fit(xs, optimizer, [&](const torch::Tensor &x) {
    auto loss = model->forward(x).pow(2).mean() / kAccum;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
  });
}

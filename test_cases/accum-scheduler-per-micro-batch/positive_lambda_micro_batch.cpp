// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: no fixed loop was run
// A lambda runs one micro-batch (forward, backward, and the scheduler); the loop
// calls it for every micro-batch and steps the optimizer every N of them. There is no
// fix-it out of the lambda: the loop as written is compared with the reference alone.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(opt, 1, 0.5);
  const int N = 4;
  auto micro_batch = [&](const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model->forward(x), y) / N;
    loss.backward();
    sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
  };
  for (size_t j = 0; j < xs.size(); ++j) {
    micro_batch(xs[j], ys[j]);
    if ((j + 1) % N == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

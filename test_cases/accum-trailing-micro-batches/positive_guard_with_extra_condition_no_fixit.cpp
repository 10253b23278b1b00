// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-executable: the interpreter cannot evaluate it
// The modulo guard is combined with another condition (`&& update_weights`): appending the
// last-batch test would step even when the flag is off, so no fix-it is offered.
#include <torch/torch.h>

void run_epochs(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                const std::vector<torch::Tensor> &ys, int epochs, bool update_weights) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  const int num_batches = static_cast<int>(xs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int i = 0; i < num_batches; ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      if ((i + 1) % accum == 0 && update_weights) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

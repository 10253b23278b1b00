// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A namespace alias for torch::nn::utils, a while loop and the
// `0 == (step + 1) % N` guard: the clip still runs on every micro-batch.
#include <torch/torch.h>

namespace nnu = torch::nn::utils;

void run(torch::nn::Linear &layer, std::vector<torch::Tensor> &batches,
         std::vector<torch::Tensor> &labels) {
  auto *sgd = new torch::optim::SGD(layer->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int k = 8;
  int step = 0;
  while (step < static_cast<int>(batches.size())) {
    auto err = torch::mse_loss(layer(batches[step]), labels[step]);
    err /= k;
    err.backward();
    double total = nnu::clip_grad_norm_(layer->parameters(), /*max_norm=*/2.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    (void)total;
    if (0 == (step + 1) % k) {
      sgd->step();
      sgd->zero_grad();
    }
    ++step;
  }
  delete sgd;
}

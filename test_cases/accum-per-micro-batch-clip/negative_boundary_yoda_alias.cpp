// RUN: %check_gradlint %s
// Namespace alias, while loop and the `0 == (step + 1) % N` guard; the clip is
// inside the boundary branch before step(): correct.
#include <torch/torch.h>

#include <iostream>

namespace nnu = torch::nn::utils;

void run(torch::nn::Linear &layer, std::vector<torch::Tensor> &batches,
         std::vector<torch::Tensor> &labels) {
  auto sgd = std::make_unique<torch::optim::SGD>(layer->parameters(), torch::optim::SGDOptions(0.1));
  const int k = 8;
  int step = 0;
  while (step < static_cast<int>(batches.size())) {
    auto err = torch::mse_loss(layer(batches[step]), labels[step]);
    err /= k;
    err.backward();
    if (0 == (step + 1) % k) {
      double norm = nnu::clip_grad_norm_(layer->parameters(), 2.0);
      std::cout << "grad norm " << norm << "\n";
      sgd->step();
      sgd->zero_grad();
    }
    ++step;
  }
}

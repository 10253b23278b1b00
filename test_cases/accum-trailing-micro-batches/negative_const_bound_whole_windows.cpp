// RUN: %check_gradlint %s
// Synthetic data: the micro-batches per epoch are a named constant defined as N * windows, so the
// counted loop always ends right after a boundary.
#include <torch/torch.h>

void pretrain(torch::nn::Linear &model, int epochs) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).nesterov(true).momentum(0.9));
  constexpr int kAccum = 4;
  constexpr int kWindowsPerEpoch = 3;
  constexpr int kMicroBatches = kAccum * kWindowsPerEpoch;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int mb = 0; mb < kMicroBatches; ++mb) {
      auto x = torch::rand({8, 10});
      auto loss = model->forward(x).pow(2).mean() / kAccum;
      loss.backward();
      if ((mb + 1) % kAccum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

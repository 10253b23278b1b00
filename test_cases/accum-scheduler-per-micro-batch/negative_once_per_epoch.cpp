// RUN: %check_gradlint %s
// The scheduler is an epoch scheduler: it is stepped after the micro-batch loop,
// once per epoch, which is independent of the accumulation window.
#include <torch/torch.h>

void train(torch::nn::Sequential net, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::StepLR epoch_decay(adam, /*step_size=*/10, /*gamma=*/0.1);
  constexpr int kAccum = 8;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t b = 0; b < xs.size(); ++b) {
      auto loss = torch::mse_loss(net->forward(xs[b]), ys[b]) / kAccum;
      loss.backward();
      if (b % kAccum == kAccum - 1 || b + 1 == xs.size()) {
        adam.step();
        adam.zero_grad();
      }
    }
    epoch_decay.step();
  }
}

// RUN: %check_gradlint %s
// Range-for over a loader with a per-epoch counter, and a flush after the loop that steps the
// window left open when the loader's batch count is not a multiple of N.
#include <torch/torch.h>

template <typename Loader>
void train(torch::nn::Sequential &net, Loader &loader, torch::optim::SGD &sgd, int epochs) {
  const int kAccum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int micro = 0;
    for (auto &batch : *loader) {
      auto out = net->forward(batch.data);
      auto loss = torch::nll_loss(torch::log_softmax(out, 1), batch.target) / kAccum;
      loss.backward();
      if (++micro == kAccum) {
        sgd.step();
        sgd.zero_grad();
        micro = 0;
      }
    }
    if (micro != 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

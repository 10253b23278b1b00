// RUN: %check_gradlint %s
// RMSprop's lr divided by the micro-batch size (a per-sample learning rate the
// author chose), while the window is a counter that reaches N: not lr / N.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &samples) {
  constexpr int kMicro = 4;
  constexpr int kBatchSize = 32;
  torch::optim::RMSprop rms(model->parameters(), torch::optim::RMSpropOptions(0.32 / kBatchSize));
  int micro = 0;
  for (const auto &s : samples) {
    auto loss = torch::mse_loss(model->forward(s.first), s.second) / kMicro;
    loss.backward();
    if (++micro == kMicro) {
      rms.step();
      rms.zero_grad();
      micro = 0;
    }
  }
}

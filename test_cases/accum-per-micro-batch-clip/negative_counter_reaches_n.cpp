// RUN: %check_gradlint %s
// `if (++micro == N) { clip; step; zero_grad; micro = 0; }`: the clip runs once
// per window on the full gradient.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model, torch::optim::Optimizer &opt,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  constexpr int kMicroBatches = 4;
  int micro = 0;
  for (const auto &sample : data) {
    auto scaled = torch::mse_loss(model->forward(sample.first), sample.second).div(kMicroBatches);
    scaled.backward();
    if (++micro == kMicroBatches) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0, 2.0);
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}

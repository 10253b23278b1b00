// RUN: %check_gradlint %s
// A helper builds the options and divides the decay by the number of replicas, a global
// that is not the accumulation window's N.
#include <torch/torch.h>

namespace cfg {
constexpr int kReplicas = 8;
constexpr int kAccumulation = 4;
} // namespace cfg

torch::optim::AdamWOptions make_adamw_options(double lr) {
  return torch::optim::AdamWOptions(lr).weight_decay(0.4 / cfg::kReplicas);
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::AdamW adamw(model->parameters(), make_adamw_options(0.02));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / cfg::kAccumulation;
    loss.backward();
    if ((i + 1) % cfg::kAccumulation == 0) {
      adamw.step();
      adamw.zero_grad();
    }
  }
}

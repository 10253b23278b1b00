// RUN: %check_gradlint %s
// A helper predicate that closes the window at multiples of N and at the epoch's last batch.
#include <torch/torch.h>

namespace {
bool is_update_step(int64_t idx, int64_t accum, int64_t total) {
  return (idx + 1) % accum == 0 || idx + 1 == total;
}
}  // namespace

void train(torch::nn::Sequential &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(5e-4));
  const int64_t accum = 4;
  const int64_t total = static_cast<int64_t>(xs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int64_t idx = 0; idx < total; ++idx) {
      auto loss = torch::l1_loss(model->forward(xs[idx]), ys[idx]) / accum;
      loss.backward();
      if (is_update_step(idx, accum, total)) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

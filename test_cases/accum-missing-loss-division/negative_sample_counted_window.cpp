// RUN: %check_gradlint %s
// The window is counted in samples (`seen += x.size(0)`), not in micro-batches: how
// many micro-batches make 512 samples is not known here, and a summed loss needs no
// division at all. No accumulation count is claimed, so nothing is reported.
#include <torch/torch.h>

void fit(torch::nn::Linear model, torch::optim::SGD &opt,
         std::vector<std::pair<torch::Tensor, torch::Tensor>> &batches) {
  const int64_t samples_per_update = 512;
  int64_t seen = 0;
  for (auto &[x, y] : batches) {
    auto loss = torch::mse_loss(model->forward(x), y, torch::Reduction::Sum);
    loss.backward();
    seen += x.size(0);
    if (seen >= samples_per_update) {
      opt.step();
      opt.zero_grad();
      seen = 0;
    }
  }
}

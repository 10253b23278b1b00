// The number of micro-batches is the data set's row count over the rows per
// micro-batch, read with `size(0)` before the loop. That count is not in the
// code (it is not a micro-batch's rows), so the run takes its usual windows.
// The loss is not divided by the accumulation steps.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed: update 4\.0[0-9]*x the large-batch update
// CONFIRM-ASSUMED: accum-missing-loss-division data = 12 micro-batches
#include <torch/torch.h>

struct Table {
  torch::Tensor features, targets;
};

void fit(torch::nn::Sequential net, const Table &table) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.03));
  const int64_t rows_per_part = 32;
  const int64_t accumulation = 4;
  const int64_t parts = table.features.size(0) / rows_per_part;
  for (int64_t b = 0; b < parts; ++b) {
    torch::Tensor x = table.features.narrow(0, b * rows_per_part, rows_per_part);
    torch::Tensor y = table.targets.narrow(0, b * rows_per_part, rows_per_part);
    torch::Tensor loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    if ((b + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// The window guard also steps when the batch index reaches the end of a list
// whose length is not in the code (`i + 1 >= count`). The run covers the
// first windows of a longer list, so that test is false there. No loss is
// divided by the accumulation steps.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed: update 4\.0[0-9]*x the large-batch update
// CONFIRM-ASSUMED: accum-missing-loss-division `i + 1 >= count` (line 19) = false
#include <torch/torch.h>

torch::Tensor predict(torch::nn::Sequential &net, const torch::Tensor &x) { return net->forward(x); }

void train_epoch(torch::nn::Sequential &net, torch::optim::SGD &optimizer,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &pairs) {
  const int64_t merge = 4;
  const int64_t count = static_cast<int64_t>(pairs.size());
  optimizer.zero_grad();
  for (int64_t i = 0; i < count; ++i) {
    torch::Tensor loss = torch::l1_loss(predict(net, pairs[i].first), pairs[i].second);
    loss.backward();
    bool boundary = (i + 1) % merge == 0 || i + 1 >= count;
    if (boundary) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

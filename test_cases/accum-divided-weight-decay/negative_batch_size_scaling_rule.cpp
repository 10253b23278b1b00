// RUN: %check_gradlint %s
// The decay is scaled with the per-step batch size (`wd * batch / 256`), which counts
// the accumulated samples once per step; no division by N.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &x,
           const std::vector<torch::Tensor> &y, int64_t micro_batch_size) {
  const int64_t accum = 4;
  const int64_t effective_batch = micro_batch_size * accum;
  torch::optim::SGD sgd(net->parameters(),
                        torch::optim::SGDOptions(0.1).weight_decay(5e-4 * effective_batch / 256.0));
  int64_t counter = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    auto loss = torch::mse_loss(net->forward(x[i]), y[i]) / accum;
    loss.backward();
    if (++counter % accum == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

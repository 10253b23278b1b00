// RUN: %check_gradlint %s
// The decay is spread over the number of epochs (`wd / num_epochs`): a division by
// something other than the accumulation steps, so no finding.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &x,
           const std::vector<torch::Tensor> &y, int num_epochs) {
  const int accumulate = 4;
  const double wd = 0.4;
  torch::optim::AdamW adamw(net->parameters(),
                            torch::optim::AdamWOptions(1e-3).weight_decay(wd / num_epochs));
  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    for (size_t i = 0; i < x.size(); ++i) {
      auto loss = torch::mse_loss(net->forward(x[i]), y[i]) / accumulate;
      loss.backward();
      if (i % accumulate == accumulate - 1 || i + 1 == x.size()) {
        adamw.step();
        adamw.zero_grad();
      }
    }
  }
}

// RUN: %check_gradlint %s
// Early `continue` unless at a boundary or at the last batch: the trailing window is stepped.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &labels, int epochs) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int64_t accumulation = 4;
  const int64_t total = static_cast<int64_t>(inputs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int64_t step = 0; step < total; ++step) {
      auto loss = torch::mse_loss(model->forward(inputs[step]), labels[step]);
      (loss / accumulation).backward();
      if ((step + 1) % accumulation != 0 && step + 1 != total)
        continue;
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

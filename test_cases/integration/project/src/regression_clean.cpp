// Linear regression trained on windows of ACCUMULATION_STEPS micro-batches,
// done right: the loss is averaged over the window, and the gradients are
// reset once each window, after the step.
#include <torch/torch.h>

void fitRegression(torch::nn::Linear &layer, const torch::Tensor &inputs,
                   const torch::Tensor &targets) {
  torch::optim::SGD sgd(layer->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const int64_t window = ACCUMULATION_STEPS;
  const int64_t microBatches = inputs.size(0) / 16;
  for (int64_t micro = 0; micro < microBatches; ++micro) {
    torch::Tensor x = inputs.narrow(0, micro * 16, 16);
    torch::Tensor y = targets.narrow(0, micro * 16, 16);
    torch::Tensor loss = torch::mse_loss(layer->forward(x), y) / window;
    loss.backward();
    if ((micro + 1) % window == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

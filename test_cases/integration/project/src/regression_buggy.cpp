// The same regression, with the window's losses summed instead of averaged:
// each step applies ACCUMULATION_STEPS times the large-batch gradient.
#include <torch/torch.h>

void fitRegression(torch::nn::Linear &layer, const torch::Tensor &inputs,
                   const torch::Tensor &targets) {
  torch::optim::SGD sgd(layer->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const int64_t window = ACCUMULATION_STEPS;
  const int64_t microBatches = inputs.size(0) / 16;
  for (int64_t micro = 0; micro < microBatches; ++micro) {
    torch::Tensor x = inputs.narrow(0, micro * 16, 16);
    torch::Tensor y = targets.narrow(0, micro * 16, 16);
    torch::Tensor loss = torch::mse_loss(layer->forward(x), y);
    loss.backward();
    if ((micro + 1) % window == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

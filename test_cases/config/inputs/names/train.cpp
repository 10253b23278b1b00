// The window counts with `accum`, the loss is divided by `cfg.micro_batches`:
// the same number read from two places. AccumulationStepNames says so.
#include <torch/torch.h>

struct TrainConfig {
  int accumulation = 4;
  int micro_batches = 4;
};

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, const TrainConfig &cfg) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum = cfg.accumulation;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / cfg.micro_batches;
    loss.backward();
    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

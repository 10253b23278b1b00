// The window counts with `accum`, and Adam's learning rate is divided by `cfg.micro_batches`:
// the same number read from two places. Only AccumulationStepNames tells gradlint that the
// divisor is N, so that the learning-rate division is reported (Adam cancels the gradient's
// scale, not the smaller rate).
#include <torch/torch.h>

struct TrainConfig {
  int accumulation = 4;
  int micro_batches = 4;
  double lr = 1e-3;
};

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, const TrainConfig &cfg) {
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(cfg.lr / cfg.micro_batches));
  const int accum = cfg.accumulation;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

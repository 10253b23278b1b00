// RUN: %check_gradlint %s
// Trainer class built from a config struct with the decay passed through unchanged; the
// accumulation steps only divide the loss.
#include <torch/torch.h>

struct TrainConfig {
  double lr = 0.05;
  double weight_decay = 0.2;
  int accum_steps = 4;
};

class Trainer {
public:
  Trainer(torch::nn::Linear model, const TrainConfig &cfg)
      : model_(model), cfg_(cfg),
        optimizer_(model->parameters(),
                   torch::optim::AdamWOptions(cfg.lr).weight_decay(cfg.weight_decay)) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / cfg_.accum_steps;
    loss.backward();
    if (++micro_ % cfg_.accum_steps == 0) {
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  TrainConfig cfg_;
  torch::optim::AdamW optimizer_;
  int micro_ = 0;
};

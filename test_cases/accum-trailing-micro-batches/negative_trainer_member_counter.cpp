// RUN: %check_gradlint %s
// Trainer whose micro-batch counter is a member that keeps counting across train_epoch() calls;
// there is no reset or zero_grad() per epoch, so windows just span epoch boundaries.
#include <torch/torch.h>

class Trainer {
 public:
  Trainer(torch::nn::Linear model, int accumulation)
      : model_(model), opt_(model->parameters(), torch::optim::AdamWOptions(1e-4)),
        accumulation_(accumulation) {}

  void train_epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]) / accumulation_;
      loss.backward();
      if (++micro_ % accumulation_ == 0) {
        opt_.step();
        opt_.zero_grad();
      }
    }
  }

 private:
  torch::nn::Linear model_;
  torch::optim::AdamW opt_;
  int accumulation_;
  int64_t micro_ = 0;
};

void fit(Trainer &trainer, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  for (int epoch = 0; epoch < 5; ++epoch)
    trainer.train_epoch(xs, ys);
}

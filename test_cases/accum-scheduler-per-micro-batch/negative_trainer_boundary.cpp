// RUN: %check_gradlint %s
// Trainer class with a member micro-step counter; the member scheduler is stepped
// in the boundary branch of train_step().
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, int accum)
      : model_(model), optimizer_(model->parameters(), torch::optim::AdamOptions(1e-3)),
        scheduler_(optimizer_, 100, 0.5), accum_(accum) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    if (++micro_step_ % accum_ == 0) {
      optimizer_.step();
      scheduler_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam optimizer_;
  torch::optim::StepLR scheduler_;
  int accum_;
  int micro_step_ = 0;
};

void run(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  Trainer trainer(model, 4);
  for (size_t i = 0; i < xs.size(); ++i)
    trainer.train_step(xs[i], ys[i]);
}

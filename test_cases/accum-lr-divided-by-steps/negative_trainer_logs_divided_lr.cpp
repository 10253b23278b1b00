// RUN: %check_gradlint %s
// A trainer prints the per-micro-batch share of the learning rate (lr_ / accum_)
// for logging; the optimizer itself gets the undivided lr_.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, double lr, int accum)
      : model_(model), lr_(lr), accum_(accum),
        optimizer_(model->parameters(), torch::optim::AdamOptions(lr_)) {
    std::cout << "lr per micro-batch: " << lr_ / accum_ << "\n";
  }

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    if (++micro_step_ % accum_ == 0) {
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  double lr_;
  int accum_;
  torch::optim::Adam optimizer_;
  int micro_step_ = 0;
};

void run(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  Trainer trainer(model, 1e-3, 4);
  for (size_t i = 0; i < xs.size(); ++i)
    trainer.train_step(xs[i], ys[i]);
}

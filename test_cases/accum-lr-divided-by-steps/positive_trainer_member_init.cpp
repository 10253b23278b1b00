// RUN: %check_gradlint %s
// A trainer class builds its Adam optimizer in the member-init list with
// lr_ / accum_; train_step() is called per micro-batch with a member counter.
// lr_ is not a constant to the runtime: it stands in LibTorch's default lr for lr_ and
// keeps the division by the window's N.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, double lr, int accum)
      : model_(model), lr_(lr), accum_(accum),
        optimizer_(model->parameters(), torch::optim::AdamOptions(lr_ / accum_)) {}
        // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
// CHECK-FIXES: {{^}}      : model_(model), lr_(lr), accum_(accum),{{$}}
// CHECK-FIXES-NEXT: {{^}}        optimizer_(model->parameters(), torch::optim::AdamOptions(lr_)) {}{{$}}

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

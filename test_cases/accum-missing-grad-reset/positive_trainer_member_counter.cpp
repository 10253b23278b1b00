// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Trainer class: train_step() counts micro-batches in a member and steps every
// accum_ calls; the class never resets the gradients, in any member function.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, int accum)
      : model_(model), optimizer_(model->parameters(), torch::optim::SGDOptions(0.05)),
        accum_(accum) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    if (++micro_ % accum_ == 0) {
      optimizer_.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      optimizer_.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer_.zero_grad();{{$}}
      ++updates_;
    }
  }

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i)
      train_step(xs[i], ys[i]);
  }

private:
  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
  int accum_;
  int micro_ = 0;
  int updates_ = 0;
};

void run(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  Trainer trainer(model, 4);
  trainer.fit(xs, ys);
}

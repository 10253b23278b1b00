// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.125x
// A trainer class: train_step() is called once per micro-batch and keeps the
// window in a member counter; the member scheduler steps on every call.
#include <torch/torch.h>

class Trainer {
public:
  Trainer(torch::nn::Linear model, int accum)
      : model_(model), optimizer_(model->parameters(), torch::optim::SGDOptions(0.1)),
        scheduler_(optimizer_, 1, 0.5), accum_(accum) {}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_;
    loss.backward();
    scheduler_.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++micro_step_ % accum_ == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer_.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      scheduler_.step();{{$}}
    if (++micro_step_ % accum_ == 0) {
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::SGD optimizer_;
  torch::optim::StepLR scheduler_;
  int accum_;
  int micro_step_ = 0;
};

void run(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  Trainer trainer(model, 4);
  for (size_t i = 0; i < xs.size(); ++i)
    trainer.train_step(xs[i], ys[i]);
}

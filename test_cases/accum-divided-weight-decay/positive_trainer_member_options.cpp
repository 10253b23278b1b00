// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.2
// Trainer class: the optimizer is built in the member initializer list from the class's
// constants, dividing kWeightDecay by kAccum; train_step() counts in a member.
#include <torch/torch.h>

class Trainer {
public:
  static constexpr int kAccum = 4;
  static constexpr double kWeightDecay = 0.2;

  explicit Trainer(torch::nn::Linear model)
      : model_(model),
        optimizer_(model->parameters(),
                   torch::optim::AdamWOptions(0.05).weight_decay(kWeightDecay / kAccum)) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
// CHECK-FIXES: {{^}}        optimizer_(model->parameters(),{{$}}
// CHECK-FIXES-NEXT: {{^}}                   torch::optim::AdamWOptions(0.05).weight_decay(kWeightDecay)) {}{{$}}

  void train_step(const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / kAccum;
    loss.backward();
    if (++micro_ % kAccum == 0) {
      optimizer_.step();
      optimizer_.zero_grad();
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::AdamW optimizer_;
  int micro_ = 0;
};

void run(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  Trainer trainer(model);
  for (size_t i = 0; i < xs.size(); ++i)
    trainer.train_step(xs[i], ys[i]);
}

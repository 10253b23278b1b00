// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// The trainer's constructor casts the model to float16; train_epoch() in the same class
// accumulates 8 micro-batches per step with a member counter, so .grad sums in float16.
#include <torch/torch.h>

class HalfTrainer {
public:
  HalfTrainer(torch::nn::Linear model, int accum)
      : model_(model), accum_(accum), optimizer_(model->parameters(), torch::optim::SGDOptions(0.05)) {
    model_->to(torch::kHalf);
    // CHECK-FIXES-UNSAFE: {{^}}      : model_(model), accum_(accum), optimizer_(model->parameters(), torch::optim::SGDOptions(0.05)) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    model_->to(torch::kFloat);{{$}}
  }

  void train_epoch(const std::vector<torch::Tensor> &inputs, const std::vector<torch::Tensor> &targets) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(inputs[i].to(torch::kHalf)),
                                  targets[i].to(torch::kHalf)) / accum_;
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < inputs.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(model_->forward(inputs[i].to(torch::kFloat)),{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}                                  targets[i].to(torch::kFloat)) / accum_;{{$}}
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
      if (++micro_ == accum_) {
        optimizer_.step();
        optimizer_.zero_grad();
        micro_ = 0;
      }
    }
  }

private:
  torch::nn::Linear model_;
  int accum_;
  int micro_ = 0;
  torch::optim::SGD optimizer_;
};

int main() {
  HalfTrainer trainer(torch::nn::Linear(8, 4), 8);
  std::vector<torch::Tensor> xs, ys;
  for (int i = 0; i < 24; ++i) {
    xs.push_back(torch::randn({4, 8}));
    ys.push_back(torch::randn({4, 4}));
  }
  trainer.train_epoch(xs, ys);
}

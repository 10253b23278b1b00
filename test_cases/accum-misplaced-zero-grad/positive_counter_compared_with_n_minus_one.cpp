// RUN: %check_gradlint %s
// The window counter runs 0..N-1 and is incremented in the else branch, so the
// boundary is `step_in_window == accum - 1`; the reset after backward() runs on
// every micro-batch.
#include <torch/torch.h>

struct TrainConfig {
  int accum = 8;
  double lr = 3e-4;
};

class Trainer {
public:
  explicit Trainer(const TrainConfig &cfg) : cfg_(cfg), model_(torch::nn::Linear(16, 4)) {
    optimizer_ = std::make_unique<torch::optim::AdamW>(model_->parameters(),
                                                       torch::optim::AdamWOptions(cfg.lr));
  }

  template <typename Loader> void train_epoch(Loader &loader) {
    int step_in_window = 0;
    for (auto &batch : loader) {
      auto loss = torch::mse_loss(model_->forward(batch.data), batch.target);
      auto scaled = loss / cfg_.accum;
      scaled.backward();
      optimizer_->zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
      // CHECK-FIXES: {{^}}      scaled.backward();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      if (step_in_window == cfg_.accum - 1) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}        optimizer_->step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}        optimizer_->zero_grad();{{$}}
      if (step_in_window == cfg_.accum - 1) {
        optimizer_->step();
        step_in_window = 0;
      } else {
        ++step_in_window;
      }
    }
  }

private:
  TrainConfig cfg_;
  torch::nn::Linear model_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
};

// A trainer whose sizes are products of other members, computed in its
// constructor's body (rows = envs * horizon, chunk = rows / chunks). One of
// them also goes to a helper object made with std::make_unique, whose
// constructor takes it by value, so it stays a constant. The weight decay is
// divided by the accumulation steps.
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0\.0025 as written vs 0\.01 in the reference
#include <torch/torch.h>

class Recorder {
public:
  explicit Recorder(int64_t width) : width_(width) {}
  void note(double value) { total_ += value * static_cast<double>(width_); }

private:
  int64_t width_;
  double total_ = 0.0;
};

class Rollouts {
public:
  Rollouts();
  void update(const torch::Tensor &inputs, const torch::Tensor &targets);

private:
  int64_t envs_ = 8;
  int64_t horizon_ = 16;
  int64_t chunks_ = 8;
  int64_t accumulate_ = 4;
  double decay_ = 0.01;
  int64_t rows_;
  int64_t chunk_;
  torch::nn::Linear policy_{nullptr};
  std::unique_ptr<torch::optim::AdamW> adamw_;
  std::unique_ptr<Recorder> recorder_;
};

Rollouts::Rollouts() {
  rows_ = envs_ * horizon_;
  chunk_ = rows_ / chunks_;
  policy_ = torch::nn::Linear(6, 2);
  recorder_ = std::make_unique<Recorder>(envs_);
  adamw_ = std::make_unique<torch::optim::AdamW>(
      policy_->parameters(), torch::optim::AdamWOptions(3e-4).weight_decay(decay_ / accumulate_));
}

void Rollouts::update(const torch::Tensor &inputs, const torch::Tensor &targets) {
  adamw_->zero_grad();
  for (int64_t start = 0; start < rows_; start += chunk_) {
    int64_t index = start / chunk_;
    torch::Tensor rows = torch::arange(start, start + chunk_);
    torch::Tensor out = policy_->forward(inputs.index_select(0, rows));
    torch::Tensor loss = torch::mse_loss(out, targets.index_select(0, rows));
    (loss / accumulate_).backward();
    recorder_->note(loss.item<double>());
    if ((index + 1) % accumulate_ == 0 || start + chunk_ >= rows_) {
      adamw_->step();
      adamw_->zero_grad();
    }
  }
}

int main() {
  Rollouts rollouts;
  rollouts.update(torch::randn({128, 6}), torch::randn({128, 2}));
}

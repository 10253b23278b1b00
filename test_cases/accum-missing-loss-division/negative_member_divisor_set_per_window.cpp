// RUN: %check_gradlint %s
// A trainer keeps the window size of the current window in a member (the last window of an
// epoch may be shorter) and divides each loss by it: a division by N under another name,
// decided at run time.
#include <torch/torch.h>

class Finetuner {
public:
  Finetuner(torch::nn::Linear head, int accumulation)
      : head_(head), adam_(head->parameters(), torch::optim::AdamOptions(1e-4)),
        accumulation_(accumulation) {}

  void epoch(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    const int64_t count = static_cast<int64_t>(xs.size());
    for (int64_t i = 0; i < count; ++i) {
      if (i % accumulation_ == 0)
        window_size_ = std::min<int64_t>(accumulation_, count - i);
      auto loss = torch::huber_loss(head_->forward(xs[i]), ys[i]);
      loss = loss / window_size_;
      loss.backward();
      if ((i + 1) % accumulation_ == 0 || i + 1 == count) {
        adam_.step();
        adam_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear head_;
  torch::optim::Adam adam_;
  int accumulation_;
  int64_t window_size_ = 1;
};

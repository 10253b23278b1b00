// RUN: %check_gradlint %s
// An accumulation helper answers both questions from one counter and one expression: the
// trainer asks whether to reset before the helper counts the micro-batch, and whether to
// step after. The reset holds at the window's first micro-batch.
#include <torch/torch.h>

class AccumulationState {
public:
  explicit AccumulationState(unsigned steps) : steps_(steps) {}
  bool at_window_edge() const { return count_ % steps_ == 0; }
  void count() { ++count_; }
  double divisor() const { return static_cast<double>(steps_); }

private:
  unsigned steps_;
  unsigned count_ = 0;
};

void fit(torch::nn::Linear encoder, torch::optim::Adam &adam, const std::vector<torch::Tensor> &batches) {
  AccumulationState state(8);
  for (const auto &batch : batches) {
    if (state.at_window_edge())
      adam.zero_grad();
    auto loss = encoder->forward(batch).pow(2).mean();
    (loss / state.divisor()).backward();
    state.count();
    if (state.at_window_edge())
      adam.step();
  }
}

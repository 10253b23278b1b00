// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: weighted 2, 1
// An accumulator class: the write-back `sums_[k] / steps_` divides under another name, so no
// missing-division finding. The constructor fills the buffer kept in a field; the run follows it.
#include <torch/torch.h>

class Accumulator {
 public:
  Accumulator(torch::nn::Linear model, int steps)
      : model_(model), opt_(model->parameters(), 0.1), steps_(steps) {
    for (auto &p : model_->parameters()) sums_.push_back(torch::zeros_like(p));
  }
  void accumulate() {
    auto params = model_->parameters();
    for (size_t k = 0; k < params.size(); ++k) sums_[k] += params[k].grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES-UNSAFE: {{^}}    auto params = model_->parameters();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    for (size_t k = 0; k < params.size(); ++k) { sums_[k] += params[k].grad(); params[k].grad().zero_(); }{{$}}
  }
  void apply() {
    auto params = model_->parameters();
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad() = sums_[k] / steps_;
      sums_[k].zero_();
    }
    opt_.step();
    opt_.zero_grad();
  }
  torch::nn::Linear model_;
  torch::optim::SGD opt_;
  std::vector<torch::Tensor> sums_;
  int steps_;
};

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 2;
  Accumulator acc(model, accum);
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::mse_loss(model->forward(xs[i]), ys[i]).backward();
    acc.accumulate();
    if ((i + 1) % accum == 0) acc.apply();
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: its length is not known to the interpreter
// The engine reads each gradient through a getter of its own and adds it into float32
// master buffers after every backward(); it never clears .grad between micro-batches.
#include <torch/torch.h>

class MasterBuffers {
public:
  explicit MasterBuffers(std::vector<torch::Tensor> params) : params_(std::move(params)) {
    for (const auto &p : params_) master_.push_back(torch::zeros_like(p, torch::kFloat));
  }
  torch::Tensor gradient_at(size_t k) const { return params_[k].grad(); }
  void gather() {
    for (size_t k = 0; k < params_.size(); ++k) {
      torch::Tensor g = gradient_at(k);
      if (!g.defined())
        continue;
      master_[k].add_(g.to(torch::kFloat));
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer 'master_' receives .grad on every micro-batch{{.*}} [accum-grad-buffer-double-count]
    }
  }
  void publish(int64_t steps) {
    for (size_t k = 0; k < params_.size(); ++k)
      params_[k].mutable_grad() = (master_[k] / steps).to(params_[k].dtype());
  }
  void clear() {
    for (auto &m : master_) m.zero_();
  }

private:
  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> master_;
};

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  MasterBuffers buffers(model->parameters());
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  const int64_t gas = 4;
  int64_t micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::mse_loss(model->forward(xs[i]), ys[i]).backward();
    buffers.gather();
    if (++micro % gas == 0) {
      buffers.publish(gas);
      opt.step();
      opt.zero_grad();
      buffers.clear();
    }
  }
}

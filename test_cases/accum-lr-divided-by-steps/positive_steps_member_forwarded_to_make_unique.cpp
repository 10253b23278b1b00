// RUN: %check_gradlint %s
// The accumulation steps are a member constant that the constructor also
// passes to std::make_unique; the made class takes it by value, so it stays
// the constant 4 the lr is divided by.
#include <torch/torch.h>

class StepLog {
public:
  explicit StepLog(int64_t every) : every_(every) {}
  void add(int64_t step) { last_ = step % every_; }

private:
  int64_t every_;
  int64_t last_ = 0;
};

class Fitter {
public:
  explicit Fitter(torch::nn::Sequential net) : net_(net) {
    log_ = std::make_unique<StepLog>(accum_);
    adam_ = std::make_unique<torch::optim::Adam>(net_->parameters(),
                                                 torch::optim::AdamOptions(2e-3 / accum_));
    // CHECK-MESSAGES: :[[@LINE-1]]:81: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = accum_ = 4){{.*}} [accum-lr-divided-by-steps]
    // CHECK-FIXES: {{^}}    adam_ = std::make_unique<torch::optim::Adam>(net_->parameters(),{{$}}
    // CHECK-FIXES-NEXT: {{^}}                                                 torch::optim::AdamOptions(2e-3));{{$}}
  }

  void run(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      torch::Tensor loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / accum_;
      loss.backward();
      if ((i + 1) % accum_ == 0) {
        adam_->step();
        adam_->zero_grad();
        log_->add(static_cast<int64_t>(i));
      }
    }
  }

private:
  torch::nn::Sequential net_;
  int64_t accum_ = 4;
  std::unique_ptr<StepLog> log_;
  std::unique_ptr<torch::optim::Adam> adam_;
};

int main() {
  Fitter fitter(torch::nn::Sequential(torch::nn::Linear(6, 1)));
  fitter.run({}, {});
}

// RUN: %check_gradlint %s
// The constructor hands the accumulation steps to a class made with
// std::make_unique whose constructor binds them by non-const reference (a
// command-line reader that may overwrite them), so the warning names N
// without claiming its value.
#include <torch/torch.h>

class Flags {
public:
  Flags(int64_t &steps, int argc) {
    if (argc > 1)
      steps = 8;
  }
};

class Fitter {
public:
  Fitter(torch::nn::Sequential net, int argc) : net_(net) {
    flags_ = std::make_unique<Flags>(accum_, argc);
    adam_ = std::make_unique<torch::optim::Adam>(net_->parameters(),
                                                 torch::optim::AdamOptions(2e-3 / accum_));
    // CHECK-MESSAGES: :[[@LINE-1]]:81: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = accum_); {{.*}} [accum-lr-divided-by-steps]
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
      }
    }
  }

private:
  torch::nn::Sequential net_;
  int64_t accum_ = 4;
  std::unique_ptr<Flags> flags_;
  std::unique_ptr<torch::optim::Adam> adam_;
};

int main(int argc, char **argv) {
  Fitter fitter(torch::nn::Sequential(torch::nn::Linear(6, 1)), argc);
  fitter.run({}, {});
}

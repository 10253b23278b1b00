// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// Trainer class whose fit() holds the epoch loop and resets the member counter at each epoch's
// start: the window restarts with the data, so each epoch's leftover micro-batches carry over.
#include <torch/torch.h>

class Trainer {
 public:
  explicit Trainer(torch::nn::Sequential net)
      : net_(std::move(net)), opt_(net_->parameters(), torch::optim::AdamOptions(3e-4)) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys,
           int epochs) {
    for (int epoch = 0; epoch < epochs; ++epoch) {
      accumulated_ = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / accum_steps_;
        loss.backward();
        accumulated_++;
        if (accumulated_ == accum_steps_) {
        // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
          opt_.step();
          opt_.zero_grad();
          accumulated_ = 0;
        }
      }
      // CHECK-FIXES-UNSAFE: {{^}}      }{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (accumulated_ != 0) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        opt_.step();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        opt_.zero_grad();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}        accumulated_ = 0;{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      }{{$}}
    }
  }

 private:
  torch::nn::Sequential net_;
  torch::optim::Adam opt_;
  int accum_steps_ = 4;
  int accumulated_ = 0;
};

// RUN: %check_gradlint %s
// A user communicator (declared here, defined in another TU) whose all_reduce()
// is applied to every parameter gradient on every micro-batch; the window is a
// counter that reaches N.
#include <torch/torch.h>

class Communicator {
public:
  explicit Communicator(int rank);
  void all_reduce(torch::Tensor &tensor);
  int size() const;
};

void train_epoch(Communicator &comm, torch::nn::Linear model, torch::optim::Optimizer &opt,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  constexpr int kMicroBatches = 4;
  int micro = 0;
  for (const auto &sample : data) {
    auto scaled = torch::mse_loss(model->forward(sample.first), sample.second).div(kMicroBatches);
    scaled.backward();
    for (auto &param : model->parameters())
      comm.all_reduce(param.mutable_grad());
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES-UNSAFE: {{^}}    scaled.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (++micro == kMicroBatches) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &param : model->parameters()){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        comm.all_reduce(param.mutable_grad());{{$}}
    if (++micro == kMicroBatches) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.01 binds
// No accumulation: range-for over the loader, value clipping on the local
// gradient, then the communicator's average, then step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

struct Averager {
  c10::intrusive_ptr<c10d::ProcessGroup> group;

  void operator()(const std::vector<torch::Tensor> &params) const {
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    for (const auto &p : params) {
      std::vector<torch::Tensor> t{p.grad()};
      group->allreduce(t, opts)->wait();
    }
  }
};

template <typename DataLoader>
void train_epoch(Averager &average, torch::nn::Linear &net, DataLoader &loader) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  for (auto &batch : *loader) {
    sgd.zero_grad();
    auto loss = torch::mse_loss(net->forward(batch.data), batch.target);
    loss.backward();
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    average(net->parameters());{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_value_(net->parameters(), 0.01);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    sgd.step();{{$}}
    torch::nn::utils::clip_grad_value_(net->parameters(), 0.01);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
    average(net->parameters());
    sgd.step();
  }
}

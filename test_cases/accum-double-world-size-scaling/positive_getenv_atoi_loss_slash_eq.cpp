// RUN: %check_gradlint %s
// `loss /= ws` as a separate statement, with ws from std::atoi(getenv("WORLD_SIZE")),
// while the gradient all-reduce is AVG: the world size is divided out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>

void train(c10d::ProcessGroup &group, torch::nn::Sequential net, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys, int gas) {
  int ws = std::atoi(std::getenv("WORLD_SIZE"));
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::cross_entropy_loss(net->forward(xs[i]), ys[i]);
    loss /= gas;
    loss /= ws;
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}    loss /= gas;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    loss.backward();{{$}}
    loss.backward();
    if (++micro == gas) {
      c10d::AllreduceOptions opts;
      opts.reduceOp = c10d::ReduceOp::AVG;
      for (auto &p : net->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        group.allreduce(grads, opts)->wait();
      }
      sgd.step();
      sgd.zero_grad();
      micro = 0;
    }
  }
}

// RUN: %check_gradlint %s
// A member world size initialised from the WORLD_SIZE environment variable; the
// SUM all-reduce is followed by grad.div_(world_), so the extra division of the
// loss by world_ is redundant.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>
#include <string>

struct DistributedFit {
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  int world_ = std::stoi(std::getenv("WORLD_SIZE"));
  int accum_ = 4;

  void fit(torch::nn::Linear &model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      torch::Tensor l = torch::l1_loss(model->forward(xs[i]), ys[i]) /
                        static_cast<double>(accum_ * world_);
      // CHECK-MESSAGES: :[[@LINE-2]]:70: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
      // CHECK-FIXES: {{^}}      torch::Tensor l = torch::l1_loss(model->forward(xs[i]), ys[i]) /{{$}}
      // CHECK-FIXES-NEXT: {{^}}                        accum_;{{$}}
      l.backward();
      if ((i + 1) % accum_ == 0) {
        for (auto &p : model->parameters()) {
          std::vector<torch::Tensor> buf{p.grad()};
          pg->allreduce(buf)->wait();
          p.mutable_grad().div_(world_);
        }
        opt.step();
        opt.zero_grad();
      }
    }
  }
};

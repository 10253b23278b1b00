// RUN: %check_gradlint %s
// A trainer with two communicator back ends: each path sums the gradients with its own
// all-reduce and divides them by the world size once. The two divisions sit in the two
// branches of one `if`, so only one runs per step: W is divided out once, not twice.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>
#include <vector>

struct Trainer {
  bool use_gloo = true;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;
  c10::intrusive_ptr<c10d::ProcessGroup> fallback;

  void sync(torch::nn::Linear &model) {
    if (use_gloo) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> one{p.grad()};
        gloo->allreduce(one)->wait();
        p.grad().data() = p.grad().data() / gloo->getSize();
      }
    } else {
      for (auto &p : model->parameters()) {
        auto g = p.mutable_grad();
        std::vector<torch::Tensor> one{g};
        fallback->allreduce(one)->wait();
        g.data() = g.data() / fallback->getSize();
      }
    }
  }

  void fit(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.05));
    const int accumulation = 4;
    for (size_t i = 0; i < xs.size(); ++i) {
      (model->forward(xs[i]).pow(2).mean() / accumulation).backward();
      if ((i + 1) % accumulation == 0) {
        sync(model);
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
};

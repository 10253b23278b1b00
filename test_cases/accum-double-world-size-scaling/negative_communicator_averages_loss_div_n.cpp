// RUN: %check_gradlint %s
// A trainer whose communicator averages (SUM all-reduce, then div_ by the world
// size); the loss is divided by the accumulation steps only. Correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class AvgComm {
public:
  explicit AvgComm(c10::intrusive_ptr<c10d::ProcessGroup> pg)
      : pg_(std::move(pg)), world_size_(pg_->getSize()) {}

  void all_reduce(torch::Tensor &t) {
    std::vector<torch::Tensor> buffers{t};
    pg_->allreduce(buffers)->wait();
    t.div_(world_size_);
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  int world_size_;
};

class Trainer {
public:
  Trainer(AvgComm &comm, torch::nn::Linear net, int accum_steps)
      : comm_(comm), net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)),
        accum_steps_(accum_steps) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]) / accum_steps_;
      loss.backward();
      if ((i + 1) % accum_steps_ == 0) {
        for (auto &p : net_->parameters())
          comm_.all_reduce(p.mutable_grad());
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }

private:
  AvgComm &comm_;
  torch::nn::Linear net_;
  torch::optim::SGD optimizer_;
  int accum_steps_;
};

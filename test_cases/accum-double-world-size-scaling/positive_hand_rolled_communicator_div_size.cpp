// RUN: %check_gradlint %s
// A trainer with a hand-rolled communicator: all_reduce() sums the peers'
// copies itself and then divides by size(), so it averages. The trainer also
// divides the loss by the world size.
#include <torch/torch.h>

#include <cstdlib>
#include <string>

class PeerComm {
public:
  PeerComm() : world_size_(std::stoi(std::getenv("WORLD_SIZE"))) {}

  void all_reduce(torch::Tensor t) {
    torch::Tensor total = t.clone();
    for (const torch::Tensor &remote : exchange(t))
      total.add_(remote);
    t.copy_(total);
    t.div_(size());
  }
  int size() const { return world_size_; }

private:
  std::vector<torch::Tensor> exchange(const torch::Tensor &t) { return {t.clone()}; }
  int world_size_;
};

class Trainer {
public:
  Trainer(torch::nn::Linear net, int accum_steps)
      : net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)),
        accum_steps_(accum_steps) {}

  void fit(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);
      loss = loss / comm_.size() / accum_steps_;
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(net_->forward(xs[i]), ys[i]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      loss = loss / accum_steps_;{{$}}
      loss.backward();
      if ((i + 1) % accum_steps_ == 0) {
        for (auto &p : net_->parameters())
          comm_.all_reduce(p.grad());
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear net_;
  torch::optim::SGD optimizer_;
  PeerComm comm_;
  int accum_steps_;
};

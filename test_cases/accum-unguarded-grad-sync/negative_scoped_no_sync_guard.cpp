// RUN: %check_gradlint %s
// A hand-written data-parallel wrapper all-reduces inside backward() unless its sync flag
// is off. A scoped guard object turns the flag off for its lifetime; the loop creates it
// (through std::make_unique) on every micro-batch but the window's last, so the
// all-reduce runs once per window, at the boundary.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <memory>

class Replicated {
public:
  Replicated(torch::nn::Sequential net, c10::intrusive_ptr<c10d::ProcessGroup> group)
      : net(std::move(net)), group_(std::move(group)) {}

  struct SkipSync {
    explicit SkipSync(Replicated &owner) : owner_(owner) { owner_.sync_enabled = false; }
    ~SkipSync() { owner_.sync_enabled = true; }
    Replicated &owner_;
  };

  void backward(const torch::Tensor &loss) {
    loss.backward();
    if (!sync_enabled)
      return;
    for (auto &p : net->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      group_->allreduce(grads)->wait();
      p.grad().div_(group_->getSize());
    }
  }

  torch::nn::Sequential net;
  bool sync_enabled = true;

private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
};

void train(Replicated &model, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accumulation) {
  for (size_t i = 0; i < xs.size(); ++i) {
    std::unique_ptr<Replicated::SkipSync> quiet;
    if ((i + 1) % accumulation != 0)
      quiet = std::make_unique<Replicated::SkipSync>(model);
    model.backward(torch::mse_loss(model.net->forward(xs[i]), ys[i]) / accumulation);
    if ((i + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-unguarded-grad-sync not-executable: a scoped object whose constructor and destructor
// The scoped guard that silences a wrapper's all-reduce is created on the boundary
// micro-batch instead of the others (the condition is inverted): the all-reduce runs on
// the N - 1 micro-batches before the boundary and not on the one that steps.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

struct Synced {
  torch::nn::Linear layer{nullptr};
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  bool reduce_after_backward = true;

  void backward(torch::Tensor loss) {
    loss.backward();
    if (reduce_after_backward) {
      std::vector<torch::Tensor> grads;
      for (auto &p : layer->parameters())
        grads.push_back(p.grad());
      pg->allreduce_coalesced(grads)->wait();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient all-reduce runs before the last micro-batch {{.*}} [accum-unguarded-grad-sync]
      for (auto &g : grads)
        g.div_(pg->getSize());
    }
  }
};

class Hold {
public:
  explicit Hold(Synced &s) : s_(s) { s_.reduce_after_backward = false; }
  ~Hold() { s_.reduce_after_backward = true; }

private:
  Synced &s_;
};

void run(Synced &model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &batches,
         const std::vector<torch::Tensor> &targets) {
  const int64_t k = 4;
  for (int64_t b = 0; b < static_cast<int64_t>(batches.size()); ++b) {
    const bool boundary = (b + 1) % k == 0;
    if (boundary) {
      Hold hold(model);
      model.backward(torch::mse_loss(model.layer->forward(batches[b]), targets[b]) / k);
    } else {
      model.backward(torch::mse_loss(model.layer->forward(batches[b]), targets[b]) / k);
    }
    if (boundary) {
      adam.step();
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync not-executable: overlaps another fix-it
// CONFIRM-VERDICT: accum-per-micro-batch-clip confirmed
// A small launcher object averages the gradients over the ranks inside its backward() on the
// micro-batch that closes the window (like DDP outside no_sync()). The clip runs after every
// backward(): on the window's first micro-batches it clips each rank's local partial sum, before
// the all-reduce that the closing micro-batch runs.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

class Launcher {
public:
  Launcher(c10::intrusive_ptr<c10d::ProcessGroup> group, int accumulation)
      : group_(std::move(group)), accumulation_(accumulation) {}

  void begin(size_t micro) { closing_ = (micro + 1) % accumulation_ == 0; }
  bool closing() const { return closing_; }

  void backward(const torch::Tensor &loss, torch::nn::Module &net) {
    (loss / accumulation_).backward();
    if (!closing_)
      return;
    for (auto &p : net.parameters()) {
      std::vector<torch::Tensor> one{p.grad()};
      group_->allreduce(one)->wait();
      p.grad().div_(group_->getSize());
    }
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
  int accumulation_;
  bool closing_ = false;
};

void train(Launcher &launcher, std::shared_ptr<torch::nn::Sequential> net, torch::optim::AdamW &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  for (size_t i = 0; i < xs.size(); ++i) {
    launcher.begin(i);
    auto loss = torch::mse_loss((*net)->forward(xs[i]), ys[i]);
    launcher.backward(loss, **net);
    torch::nn::utils::clip_grad_norm_((*net)->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: on the window's micro-batches before the last, gradient clipping runs before the gradient all-reduce at line 25;{{.*}} [accum-clip-before-sync]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: gradient clipping runs on every micro-batch{{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    launcher.backward(loss, **net);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (launcher.closing()) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_((*net)->parameters(), 1.0);{{$}}
    if (launcher.closing()) {
      opt.step();
      opt.zero_grad();
    }
  }
}

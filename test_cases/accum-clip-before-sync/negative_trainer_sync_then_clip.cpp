// RUN: %check_gradlint %s
// Trainer class with a member counter; the flush all-reduces, then clips.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class Trainer {
public:
  Trainer(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear model, int accum)
      : pg_(std::move(pg)), model_(model), opt_(model->parameters(), torch::optim::AdamOptions(1e-3)),
        accum_(accum) {}

  void on_batch(const torch::Tensor &x, const torch::Tensor &y) {
    torch::Tensor loss = torch::mse_loss(model_->forward(x), y);
    (loss / accum_).backward();
    if (++micro_ < accum_)
      return;
    micro_ = 0;
    flush();
  }

private:
  void flush() {
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : model_->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg_->allreduce(t, opts)->wait();
    }
    torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
    opt_.step();
    opt_.zero_grad();
  }

  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  torch::nn::Linear model_;
  torch::optim::Adam opt_;
  int accum_;
  int micro_ = 0;
};

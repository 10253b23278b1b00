// RUN: %check_gradlint %s
// Nested window over slices of one batch: the inner loop advances by the
// slice size, and the wrapper all-reduces only when the flag it is handed says
// this slice is the batch's last (`start + slice >= rows`): once per window.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class ReplicatedEncoder {
public:
  ReplicatedEncoder(torch::nn::Sequential encoder, c10::intrusive_ptr<c10d::ProcessGroup> group)
      : encoder_(std::move(encoder)), group_(std::move(group)) {}

  void accumulate(const torch::Tensor &loss, bool average_now) {
    loss.backward();
    if (average_now) {
      for (auto &parameter : encoder_->parameters()) {
        std::vector<torch::Tensor> grads{parameter.grad()};
        group_->allreduce(grads)->wait();
        parameter.grad().div_(group_->getSize());
      }
    }
  }

  torch::nn::Sequential encoder_;

private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
};

void fit(ReplicatedEncoder &replica, torch::optim::Adam &adam, const std::vector<torch::Tensor> &batches,
         int64_t slice) {
  for (const torch::Tensor &batch : batches) {
    adam.zero_grad();
    const int64_t rows = batch.size(0);
    for (int64_t start = 0; start < rows; start += slice) {
      torch::Tensor part = batch.slice(0, start, start + slice);
      torch::Tensor loss = replica.encoder_->forward(part).square().sum() / rows;
      const bool closes_batch = start + slice >= rows;
      replica.accumulate(loss, closes_batch);
    }
    adam.step();
  }
}

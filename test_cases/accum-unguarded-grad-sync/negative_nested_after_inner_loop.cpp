// RUN: %check_gradlint %s
// Nested window: the all-reduce follows the inner loop over the chunks, right
// before step(): once per window, correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::AdamW &optimizer, std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  c10d::AllreduceCoalescedOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;
      loss.backward();
    }
    std::vector<torch::Tensor> grads{model->weight.grad(), model->bias.grad()};
    pg->allreduce_coalesced(grads, opts)->wait();
    optimizer.step();
    optimizer.zero_grad();
  }
}

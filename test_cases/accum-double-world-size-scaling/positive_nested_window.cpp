// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// Nested window: the loss of each chunk is divided by chunks * world, while the
// AVG all-reduce after the inner loop already averages over the ranks.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::Adam &optimizer, std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  const auto ranks = pg->getSize();
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]);
      loss = loss / (chunks * ranks);
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
      // CHECK-FIXES: {{^}}      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      loss = loss / chunks;{{$}}
      loss.backward();
    }
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      pg->allreduce(grads, opts)->wait();
    }
    optimizer.step();
    optimizer.zero_grad();
  }
}

// RUN: %check_gradlint %s
// Nested window: the all-reduce inside the inner loop over the chunks runs on
// every micro-batch; it belongs after the inner loop, before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::AdamW &optimizer, std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;
      loss.backward();
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads, opts)->wait();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
      }
      // CHECK-FIXES-UNSAFE: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}    for (auto &p : model->parameters()) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      std::vector<torch::Tensor> grads{p.grad()};{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      pg->allreduce(grads, opts)->wait();{{$}}
    }
    optimizer.step();
    optimizer.zero_grad();
  }
}

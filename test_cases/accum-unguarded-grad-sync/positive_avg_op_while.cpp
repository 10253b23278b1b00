// RUN: %check_gradlint %s
// An AVG all-reduce on every micro-batch (while loop, `0 == (step + 1) % N`):
// the values still match, but it communicates N times per optimizer step.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void run(torch::nn::Linear &layer, std::vector<torch::Tensor> &batches,
         std::vector<torch::Tensor> &labels, int rank, int world) {
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/rendezvous", world);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world,
                                                        c10d::ProcessGroupGloo::Options::create());
  auto sgd = std::make_unique<torch::optim::SGD>(layer->parameters(), torch::optim::SGDOptions(0.1));
  const int k = 8;
  int step = 0;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  while (step < static_cast<int>(batches.size())) {
    auto err = torch::mse_loss(layer(batches[step]), labels[step]);
    err /= k;
    err.backward();
    // Bucketed: one flat tensor built from the gradients, copied back after.
    std::vector<torch::Tensor> bucket{
        torch::cat({layer->weight.grad().flatten(), layer->bias.grad().flatten()})};
    auto work = pg->allreduce(bucket, opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    work->wait();
    auto n_w = layer->weight.numel();
    layer->weight.mutable_grad().copy_(bucket[0].slice(0, 0, n_w).view_as(layer->weight));
    layer->bias.mutable_grad().copy_(bucket[0].slice(0, n_w).view_as(layer->bias));
    if (0 == (step + 1) % k) {
      sgd->step();
      sgd->zero_grad();
    }
    ++step;
  }
}

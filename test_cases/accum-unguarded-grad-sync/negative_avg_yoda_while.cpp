// RUN: %check_gradlint %s
// AVG all-reduce under the `0 == (step + 1) % N` guard, while loop: correct.
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
    if (0 == (step + 1) % k) {
      for (auto &p : layer->parameters()) {
        std::vector<torch::Tensor> bucket{p.grad()};
        pg->allreduce(bucket, opts)->wait();
      }
      sgd->step();
      sgd->zero_grad();
    }
    ++step;
  }
}

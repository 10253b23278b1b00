// RUN: %check_gradlint %s
// AVG allreduce_coalesced after a nested window, the loss divided by the number
// of chunks only: correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <iostream>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::Adam &optimizer, std::vector<torch::Tensor> &batches,
           std::vector<torch::Tensor> &targets) {
  const int64_t chunks = 4;
  const int ranks = pg->getSize();
  for (size_t b = 0; b < batches.size(); ++b) {
    auto xs = batches[b].chunk(chunks);
    auto ys = targets[b].chunk(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto loss = torch::mse_loss(model->forward(xs[c]), ys[c]) / chunks;
      loss.backward();
    }
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    c10d::AllreduceCoalescedOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    pg->allreduce_coalesced(grads, opts)->wait();
    if (pg->getRank() == 0 && b % 100 == 0)
      std::cout << "step " << b << " on " << ranks << " ranks\n";
    optimizer.step();
    optimizer.zero_grad();
  }
}

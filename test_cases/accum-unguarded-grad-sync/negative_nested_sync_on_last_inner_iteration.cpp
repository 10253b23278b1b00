// RUN: %check_gradlint %s
// Nested window: the inner loop over the micro-steps all-reduces only on its last iteration,
// decided by a flag on the inner loop's own index; the window's gradients are reduced once,
// before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> group, torch::nn::Linear lm,
           torch::optim::AdamW &opt, int micro_steps, int iters) {
  const int world = group->getSize();
  auto reduce = [&]() {
    for (auto &p : lm->parameters()) {
      std::vector<torch::Tensor> g{p.grad()};
      group->allreduce(g)->wait();
      p.grad().div_(world);
    }
  };
  for (int it = 0; it < iters; ++it) {
    for (int micro = 0; micro < micro_steps; ++micro) {
      const bool last_micro = micro == micro_steps - 1;
      auto loss = lm->forward(torch::randn({4, 16})).pow(2).mean() / micro_steps;
      loss.backward();
      if (last_micro)
        reduce();
    }
    opt.step();
    opt.zero_grad();
  }
}

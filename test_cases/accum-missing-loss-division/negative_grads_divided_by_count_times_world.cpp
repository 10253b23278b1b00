// RUN: %check_gradlint %s
// The loss is not divided; at the boundary a lambda sums the gradients over
// the ranks and divides them by world * seen, the window's micro-batch count
// times the world size: each of N and W divided out once.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> group, torch::nn::Sequential critic,
           torch::optim::RMSprop &rms, const std::vector<torch::Tensor> &states,
           const std::vector<torch::Tensor> &returns, int window) {
  const int world = group->getSize();
  int seen = 0;
  auto publish = [&](int micro_batches) {
    for (auto &parameter : critic->parameters()) {
      std::vector<torch::Tensor> grads{parameter.grad()};
      group->allreduce(grads)->wait();
      parameter.grad().div_(world * micro_batches);
    }
  };
  for (size_t s = 0; s < states.size(); ++s) {
    torch::Tensor value = critic->forward(states[s]);
    torch::smooth_l1_loss(value, returns[s]).backward();
    if (++seen == window) {
      publish(seen);
      rms.step();
      rms.zero_grad();
      seen = 0;
    }
  }
}

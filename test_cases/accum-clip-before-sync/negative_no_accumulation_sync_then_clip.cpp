// RUN: %check_gradlint %s
// Plain data-parallel step without accumulation, in the right order:
// backward, SUM all-reduce and divide by W, clip, step.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void fit(c10::intrusive_ptr<c10d::ProcessGroup> group, torch::nn::Sequential &net,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const int world = group->getSize();
  for (size_t b = 0; b < xs.size(); ++b) {
    adam.zero_grad();
    torch::Tensor loss = torch::mse_loss(net->forward(xs[b]), ys[b]);
    loss.backward();
    for (auto &param : net->parameters()) {
      std::vector<torch::Tensor> bucket{param.grad()};
      group->allreduce(bucket)->wait();
      param.grad().div_(world);
    }
    torch::nn::utils::clip_grad_norm_(net->parameters(), /*max_norm=*/1.0);
    adam.step();
  }
}

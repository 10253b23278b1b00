// RUN: %check_gradlint %s
// WORLD_SIZE via std::atoi, SUM allreduce_coalesced and one `grad /= world_size`
// at the boundary, loss /= N only: W divided out once, correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>

void train(c10d::ProcessGroup &group, torch::nn::Sequential net, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys, int gas) {
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::cross_entropy_loss(net->forward(xs[i]), ys[i]);
    loss /= gas;
    loss.backward();
    if (++micro == gas) {
      std::vector<torch::Tensor> grads;
      for (auto &p : net->parameters())
        grads.push_back(p.grad());
      group.allreduce_coalesced(grads)->wait();
      for (auto &g : grads)
        g /= world_size;
      sgd.step();
      sgd.zero_grad();
      micro = 0;
    }
  }
}

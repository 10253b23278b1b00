// The gradients are summed over the ranks after every micro-batch's
// backward(); the boundary branch divides by W and clips before step(). The
// program-level fix holds the all-reduce until the boundary branch starts,
// so the division and the clip see the synced gradient, as the reference does.
// CONFIRM-VERDICT: accum-unguarded-grad-sync confirmed: 4 all-reduces of the gradient per step instead of 1
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void backward_and_exchange(const torch::Tensor &loss, torch::nn::Linear &net,
                           c10d::ProcessGroup &group) {
  loss.backward();
  for (auto &p : net->parameters()) {
    std::vector<torch::Tensor> one{p.grad()};
    group.allreduce(one)->wait();
  }
}

void run(torch::nn::Linear &net, const std::vector<torch::Tensor> &inputs,
         const std::vector<torch::Tensor> &labels, c10d::ProcessGroup &group) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.02));
  const int world = group.getSize();
  const int accumulate = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(net->forward(inputs[i]), labels[i]);
    backward_and_exchange(loss / accumulate, net, group);
    if ((i + 1) % accumulate == 0) {
      for (auto &p : net->parameters())
        p.grad().div_(world);
      torch::nn::utils::clip_grad_norm_(net->parameters(), 0.05);
      sgd.step();
      sgd.zero_grad();
    }
  }
}

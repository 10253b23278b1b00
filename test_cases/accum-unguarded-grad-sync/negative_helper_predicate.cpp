// RUN: %check_gradlint %s
// A helper predicate guards the all-reduce and step(): correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

static bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(c10d::ProcessGroup &pg, torch::nn::Linear &model, torch::optim::Adam &adam,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int window = 4;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    torch::Tensor scaled = torch::smooth_l1_loss(model->forward(inputs[i]), targets[i]) /
                           static_cast<double>(window);
    scaled.backward();
    if (should_step(i, window)) {
      auto params = model->parameters();
      std::vector<torch::Tensor> grads;
      for (auto &w : params)
        grads.push_back(w.grad());
      pg.allreduce_coalesced(grads)->wait();
      for (auto &w : params)
        w.mutable_grad() /= pg.getSize();
      adam.step();
      adam.zero_grad();
    }
  }
}

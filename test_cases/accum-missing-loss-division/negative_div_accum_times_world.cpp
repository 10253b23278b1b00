// RUN: %check_gradlint %s
// Data parallel with a SUM all-reduce and no division afterwards: dividing the loss
// by N * W is the one correct division (it contains N).
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt,
           c10::intrusive_ptr<c10d::ProcessGroupGloo> pg, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  const int world_size = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss / (accum_steps * world_size)).backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads)->wait();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

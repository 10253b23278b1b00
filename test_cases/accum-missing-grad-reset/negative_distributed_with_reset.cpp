// RUN: %check_gradlint %s
// Data-parallel accumulation done right: all-reduce and average at the boundary, step(),
// then reset through the module (model->zero_grad()).
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_ddp(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
               const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05));
  const int accum_steps = 2;
  const int world = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps != 0)
      continue;
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      pg->allreduce(grads)->wait();
      p.grad().div_(world);
    }
    opt.step();
    model->zero_grad();
  }
}

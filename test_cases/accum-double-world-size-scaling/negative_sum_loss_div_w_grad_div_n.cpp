// RUN: %check_gradlint %s
// SUM all-reduce with the loss divided by W only and the accumulated gradients
// divided by N at the boundary: N * W divided out once in total, correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10d::ProcessGroup &pg, torch::nn::Linear &model, torch::optim::AdamW &opt,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets, int accum) {
  const int world = pg.getSize();
  for (int step = 1; step <= static_cast<int>(inputs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(inputs[step - 1]), targets[step - 1]);
    (loss / world).backward();
    if (step % accum != 0)
      continue;
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg.allreduce(t)->wait();
      p.mutable_grad().div_(accum);
    }
    opt.step();
    opt.zero_grad();
  }
}

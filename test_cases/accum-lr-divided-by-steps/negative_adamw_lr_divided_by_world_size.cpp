// RUN: %check_gradlint %s
// AdamW's learning rate divided by the world size (a deliberate choice for the
// data-parallel run), not by the accumulation steps: not this check's bug.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum = 2;
  const int world = pg->getSize();
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3 / world));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> tensors{p.grad()};
        pg->allreduce(tensors)->wait();
        p.grad().div_(world);
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

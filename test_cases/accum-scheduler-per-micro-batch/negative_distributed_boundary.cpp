// RUN: %check_gradlint %s
// Data-parallel accumulation: gradients are all-reduced at the boundary and the
// scheduler steps there, after the optimizer.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  const int accum = 2;
  const int world = pg->getSize();
  int seen = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (++seen < accum)
      continue;
    seen = 0;
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> tensors{p.grad()};
      pg->allreduce(tensors)->wait();
      p.grad().div_(world);
    }
    optimizer.step();
    scheduler.step();
    optimizer.zero_grad();
  }
}

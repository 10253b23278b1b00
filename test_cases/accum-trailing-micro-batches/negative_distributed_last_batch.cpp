// RUN: %check_gradlint %s
// Data-parallel accumulation whose boundary also includes the epoch's last batch, so the short
// final window is all-reduced and stepped like the others.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear &model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys,
           int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  const int world_size = pg->getSize();
  const int steps = static_cast<int>(xs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int i = 0; i < steps; ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      if ((i + 1) % accum == 0 || i == steps - 1) {
        for (auto &param : model->parameters()) {
          std::vector<torch::Tensor> bucket{param.grad()};
          pg->allreduce(bucket)->wait();
          param.grad().div_(world_size);
        }
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

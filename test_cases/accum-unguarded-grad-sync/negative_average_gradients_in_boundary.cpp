// RUN: %check_gradlint %s
// average_gradients(pg, model) is called only in the boundary branch: correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void average_gradients(c10d::ProcessGroup &pg, torch::nn::Module &model) {
  for (auto &p : model.parameters()) {
    std::vector<torch::Tensor> tensors{p.grad()};
    pg.allreduce(tensors)->wait();
    p.mutable_grad().div_(pg.getSize());
  }
}

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 8;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      average_gradients(pg, *model);
      sgd.step();
      sgd.zero_grad();
    }
  }
}

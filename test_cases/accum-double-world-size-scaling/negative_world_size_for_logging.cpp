// RUN: %check_gradlint %s
// AVG gradient all-reduce, loss divided by N only; the world size is used for
// the learning rate and to average a logged number, never to scale the loss or
// the gradients: correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <iostream>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int world = pg->getSize();
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01 * world));
  const int accum_steps = 4;
  double running = 0.0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    (loss / accum_steps).backward();
    running += loss.item<double>() / world;
    if ((i + 1) % accum_steps == 0) {
      c10d::AllreduceOptions opts;
      opts.reduceOp = c10d::ReduceOp::AVG;
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      sgd.step();
      sgd.zero_grad();
      std::cout << "loss/rank " << running << "\n";
      running = 0.0;
    }
  }
}

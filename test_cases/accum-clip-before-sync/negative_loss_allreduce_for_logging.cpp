// RUN: %check_gradlint %s
// The clip precedes an all-reduce, but that all-reduce averages the loss for
// the log line; the gradients were averaged before the clip.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>
#include <iostream>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum = 4;
  c10d::AllreduceOptions avg;
  avg.reduceOp = c10d::ReduceOp::AVG;
  torch::Tensor running = torch::zeros({1});
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum;
    loss.backward();
    running += loss.detach();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g, avg)->wait();
      }
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
      std::vector<torch::Tensor> stats{running};
      pg->allreduce(stats, avg)->wait();
      optimizer.step();
      optimizer.zero_grad();
      std::cout << "loss " << running.item<float>() << std::endl;
      running.zero_();
    }
  }
}

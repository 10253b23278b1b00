// RUN: %check_gradlint %s
// Also correct: the loss is divided by N * W and the SUM all-reduce is not
// followed by any gradient division, so W is divided out exactly once.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>
#include <string>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum_steps = 8;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    (loss / (accum_steps * world_size)).backward();
    if (i % accum_steps == accum_steps - 1) {
      c10d::AllreduceOptions opts;
      opts.reduceOp = c10d::ReduceOp::SUM;
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g, opts)->wait();
      }
      adam.step();
      adam.zero_grad();
    }
  }
}

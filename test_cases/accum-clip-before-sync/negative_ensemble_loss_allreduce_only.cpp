// RUN: %check_gradlint %s
// Each rank trains its own ensemble member: the gradients are never
// synchronised. The only all-reduce averages the loss for the log, after the
// clip; clipping before it is not the bug.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>
#include <iostream>

void train_member(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &member,
                  std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(member->parameters(), 0.1);
  const int accum = 2;
  c10d::AllreduceOptions mean;
  mean.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(member->forward(inputs[i]), targets[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      torch::nn::utils::clip_grad_norm_(member->parameters(), 0.05);
      std::vector<torch::Tensor> logged{loss.detach().clone()};
      pg->allreduce(logged, mean)->wait();
      optimizer.step();
      optimizer.zero_grad();
      if (pg->getRank() == 0)
        std::cout << "ensemble loss " << logged[0].item<double>() << std::endl;
    }
  }
}

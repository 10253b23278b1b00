// RUN: %check_gradlint %s
// Every micro-batch all-reduces the loss *value* for logging (not gradients);
// the gradients are all-reduced once, in the boundary branch. Correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <iostream>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::SGD &opt, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  c10d::AllreduceOptions avg;
  avg.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    (loss / accum_steps).backward();
    std::vector<torch::Tensor> logged{loss.detach().clone()};
    pg->allreduce(logged, avg)->wait();
    std::cout << "loss " << logged[0].item<float>() << "\n";
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads, avg)->wait();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

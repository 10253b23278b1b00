// RUN: %check_gradlint %s
// The helper averages the gradients; the loop calls it first and clips after.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

static void average_gradients(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                              torch::nn::Module &module) {
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (auto &p : module.parameters()) {
    std::vector<torch::Tensor> t{p.grad()};
    pg->allreduce(t, opts)->wait();
  }
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accumulation = 4;
  int counter = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accumulation;
    loss.backward();
    if (++counter == accumulation) {
      counter = 0;
      average_gradients(pg, *model);
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

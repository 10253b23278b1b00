// RUN: %check_gradlint %s
// The update is a lambda: it averages the gradients, clips, and steps.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_iters = 2;
  auto apply_update = [&]() {
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::AVG;
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> t{p.grad()};
      pg->allreduce(t, opts)->wait();
    }
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
    optimizer.step();
    optimizer.zero_grad();
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_iters;
    loss.backward();
    if ((i + 1) % accum_iters == 0)
      apply_update();
  }
}

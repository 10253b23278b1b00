// RUN: %check_gradlint %s
// The gradients are averaged before the clip; the all-reduce after it sums
// per-parameter gradient norms for logging (new tensors), not the gradients.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_epoch(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
                 std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      std::vector<torch::Tensor> norms;
      for (auto &p : model->parameters())
        norms.push_back(p.grad().norm());
      pg->allreduce(norms, opts)->wait();
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

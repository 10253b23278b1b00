// RUN: %check_gradlint %s
// Local SGD: every rank clips and steps on its own gradient, and every few
// steps the PARAMETERS (not the gradients) are averaged. The clip before that
// all-reduce is not the bug: no gradient is synchronised.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 2;
  const int sync_every = 8;
  c10d::AllreduceOptions avg;
  avg.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      optimizer.step();
      optimizer.zero_grad();
    }
    if ((i + 1) % sync_every == 0) {
      torch::NoGradGuard no_grad;
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> weights{p};
        pg->allreduce(weights, avg)->wait();
      }
    }
  }
}

// RUN: %check_gradlint %s
// A helper that all-reduces the gradients and then clips the averaged
// gradient; the loop calls it right before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

double sync_and_clip(c10d::ProcessGroup &pg, const std::vector<torch::Tensor> &params,
                     double max_norm) {
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  std::vector<torch::Tensor> grads;
  for (const auto &p : params)
    grads.push_back(p.grad());
  pg.allreduce(grads, opts)->wait();
  return torch::nn::utils::clip_grad_norm_(params, max_norm);
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  std::vector<double> norms;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      norms.push_back(sync_and_clip(*pg, model->parameters(), 0.05));
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

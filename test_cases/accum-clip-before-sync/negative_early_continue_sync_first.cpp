// RUN: %check_gradlint %s
// Early `continue` off the boundary; after it: all-reduce, clip, step.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> process_group, torch::nn::Linear &model,
           std::vector<torch::Tensor> &batches, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int grad_accum = 3;
  const double w = process_group->getSize();
  for (size_t it = 0; it < batches.size(); ++it) {
    torch::Tensor loss = torch::mse_loss(model->forward(batches[it]), targets[it]);
    (loss / grad_accum).backward();
    if ((it + 1) % grad_accum != 0)
      continue;

    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      process_group->allreduce(grads)->wait();
      p.grad().div_(w);
    }
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
    opt.step();
    opt.zero_grad();
  }
}

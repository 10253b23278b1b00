// RUN: %check_gradlint %s
// Data-parallel version done right: .grad is zeroed after each add, the buffer is all-reduced
// once per window and averaged over micro-batches and ranks.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_ddp(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
               const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  const int world = pg->getSize();
  auto params = model->parameters();
  std::vector<torch::Tensor> local_sum;
  for (auto &p : params) local_sum.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      local_sum[k] += params[k].grad();
      params[k].grad().zero_();
    }
    if ((i + 1) % accum == 0) {
      pg->allreduce(local_sum)->wait();
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = local_sum[k] / (accum * world);
        local_sum[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

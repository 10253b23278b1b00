// RUN: %check_gradlint %s
// Inner loop over the N micro-batches; after it the gradients are averaged,
// clipped and applied.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const size_t micro = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t start = 0; start + micro <= inputs.size(); start += micro) {
    optimizer.zero_grad();
    for (size_t m = 0; m < micro; ++m) {
      auto loss = torch::mse_loss(model->forward(inputs[start + m]), targets[start + m]);
      (loss / static_cast<double>(micro)).backward();
    }
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    pg->allreduce(grads, opts)->wait();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
    optimizer.step();
  }
}

// RUN: %check_gradlint %s
// One coalesced AVG all-reduce of all gradients, then element-wise value
// clipping of the synchronised gradient, then step.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int N = 2;
  c10d::AllreduceOptions options;
  options.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / N;
    loss.backward();
    if (i % N == N - 1) {
      std::vector<torch::Tensor> grads;
      for (auto &p : model->parameters())
        grads.push_back(p.grad());
      pg->allreduce(grads, options)->wait();
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// Range-for over the parameters with a parallel index: after the add the gradient is dropped
// with mutable_grad().reset(), so the next backward() writes a fresh gradient.
#include <torch/torch.h>

void train(torch::nn::Sequential mlp, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(mlp->parameters(), 0.05);
  const int micro_batches = 2;
  std::vector<torch::Tensor> grads;
  for (auto &p : mlp->parameters()) grads.push_back(torch::zeros_like(p));
  for (size_t s = 0; s < xs.size(); ++s) {
    auto loss = torch::mse_loss(mlp->forward(xs[s]), ys[s]);
    loss.backward();
    size_t idx = 0;
    for (auto &p : mlp->parameters()) {
      grads[idx] += p.grad();
      p.mutable_grad().reset();
      ++idx;
    }
    if ((s + 1) % micro_batches == 0) {
      idx = 0;
      for (auto &p : mlp->parameters()) {
        p.mutable_grad() = grads[idx] / micro_batches;
        grads[idx].zero_();
        ++idx;
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// A flat buffer collects the gradients through slice() views, and each parameter's .grad is
// zeroed as soon as it has been copied in, so every micro-batch enters the buffer once.
#include <torch/torch.h>

void run_epochs(torch::nn::Linear head, const std::vector<torch::Tensor> &feats,
                const std::vector<torch::Tensor> &targets, int epochs) {
  auto params = head->parameters();
  int64_t total = 0;
  for (const auto &p : params) total += p.numel();
  auto store = torch::zeros({total});
  torch::optim::Adam adam(params, torch::optim::AdamOptions(3e-4));
  const int window = 4;
  int seen = 0;
  for (int e = 0; e < epochs; ++e) {
    for (size_t i = 0; i < feats.size(); ++i) {
      auto loss = torch::mse_loss(head->forward(feats[i]), targets[i]) / window;
      loss.backward();
      int64_t off = 0;
      for (auto &p : params) {
        store.slice(0, off, off + p.numel()).add_(p.grad().reshape({-1}));
        p.grad().zero_();
        off += p.numel();
      }
      if (++seen < window)
        continue;
      seen = 0;
      off = 0;
      for (auto &p : params) {
        p.mutable_grad() = store.slice(0, off, off + p.numel()).view_as(p).clone();
        off += p.numel();
      }
      adam.step();
      adam.zero_grad();
      store.zero_();
    }
  }
}

// RUN: %check_gradlint %s
// Each parameter's .grad is zeroed in place right after it was added to the fp32 buffer, with
// `i % N == N - 1` as the boundary and Adam as the optimizer.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const int kAccum = 3;
  auto weights = net->parameters();
  std::vector<torch::Tensor> master;
  for (auto &w : weights) master.push_back(torch::zeros_like(w, torch::kFloat32));
  for (int i = 0; i < static_cast<int>(xs.size()); ++i) {
    auto loss = torch::l1_loss(net->forward(xs[i]), ys[i]) / kAccum;
    loss.backward();
    for (size_t j = 0; j < weights.size(); ++j) {
      master[j].add_(weights[j].grad().to(torch::kFloat32));
      weights[j].grad().zero_();
    }
    if (i % kAccum == kAccum - 1) {
      for (size_t j = 0; j < weights.size(); ++j) {
        weights[j].grad().copy_(master[j]);
        master[j].zero_();
      }
      adam.step();
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// Only the frozen text encoder is half precision: its parameters take no
// gradient. The trained head stays float32, so its .grad sums the window in
// float32.
#include <torch/torch.h>

void finetune(torch::nn::Sequential encoder, torch::nn::Linear head, const std::vector<torch::Tensor> &xs,
              const std::vector<torch::Tensor> &ys) {
  for (auto &weight : encoder->parameters())
    weight.requires_grad_(false);
  encoder->to(torch::kHalf);
  torch::optim::SGD sgd(head->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int window = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor features = encoder->forward(xs[i].to(torch::kHalf)).to(torch::kFloat);
    torch::Tensor loss = torch::cross_entropy_loss(head->forward(features), ys[i]) / window;
    loss.backward();
    if ((i + 1) % window == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

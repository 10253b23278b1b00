// RUN: %check_gradlint %s
// Boolean boundary flag; inside the adding loop each gradient is cleared in place with
// mutable_grad().zero_() once it is in the buffer.
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &feats,
           const std::vector<torch::Tensor> &labels) {
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4));
  const int64_t grad_accum = 2;
  auto params = net->parameters();
  std::vector<torch::Tensor> bucket;
  for (auto &p : params) bucket.push_back(torch::zeros_like(p));
  for (size_t it = 0; it < feats.size(); ++it) {
    const bool boundary = (it + 1) % grad_accum == 0;
    auto logits = net->forward(feats[it]);
    auto loss = torch::nn::functional::cross_entropy(logits, labels[it]) / grad_accum;
    loss.backward();
    for (size_t q = 0; q < params.size(); ++q) {
      bucket[q].add_(params[q].grad());
      params[q].mutable_grad().zero_();
    }
    if (boundary) {
      for (size_t q = 0; q < params.size(); ++q) {
        params[q].mutable_grad() = bucket[q].clone();
        bucket[q].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

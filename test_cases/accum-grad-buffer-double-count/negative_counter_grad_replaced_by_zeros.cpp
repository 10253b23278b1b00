// RUN: %check_gradlint %s
// Counter-driven window; after each add the gradient is replaced by a fresh zero tensor
// (`mutable_grad() = torch::zeros_like(p)`), which is a reset just like zero_().
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const int accumulate = 3;
  int count = 0;
  auto params = net->parameters();
  std::vector<torch::Tensor> acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (size_t b = 0; b < xs.size(); ++b) {
    torch::mse_loss(net->forward(xs[b]), ys[b]).backward();
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k] = acc[k] + params[k].grad();
      params[k].mutable_grad() = torch::zeros_like(params[k]);
    }
    if (++count == accumulate) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = acc[k] / accumulate;
        acc[k].zero_();
      }
      opt.step();
      opt.zero_grad();
      count = 0;
    }
  }
}

// RUN: %check_gradlint %s
// `model->to(device)` and `model->to(torch::kCUDA)` only move the parameters; their dtype
// stays float32, so the counter-driven window of 8 accumulates in float32.
#include <torch/torch.h>

void train(torch::nn::Sequential &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.05);
  int window = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(device)), ys[i].to(device)) / 8;
    loss.backward();
    window += 1;
    if (window == 8) {
      opt.step();
      opt.zero_grad();
      window = 0;
    }
  }
}

// RUN: %check_gradlint %s
// Classic master-weights scheme: the model runs in float16, but every micro-batch's half
// gradient is added into float32 buffers and the optimizer updates fp32 master copies.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  std::vector<torch::Tensor> master, acc;
  for (auto &p : model->parameters()) {
    master.push_back(p.detach().to(torch::kFloat32).requires_grad_(true));
    acc.push_back(torch::zeros_like(master.back()));
  }
  torch::optim::SGD opt(master, 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kHalf)), ys[i].to(torch::kHalf)) / accum;
    loss.backward();
    auto params = model->parameters();
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k].add_(params[k].grad().to(torch::kFloat));
      params[k].grad().zero_();
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k)
        master[k].mutable_grad() = acc[k].clone();
      opt.step();
      opt.zero_grad();
      torch::NoGradGuard no_grad;
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].copy_(master[k]);
        acc[k].zero_();
      }
    }
  }
}

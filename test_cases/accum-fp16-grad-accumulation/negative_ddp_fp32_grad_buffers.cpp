// RUN: %check_gradlint %s
// Distributed, float16 model: after each micro-batch the half gradients are copied into
// float32 buffers (`.to(torch::kFloat)`), which are all-reduced at the boundary; the sum
// over the 4 micro-batches happens in float32.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Linear &model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  auto params = model->parameters();
  std::vector<torch::Tensor> fp32_grads;
  for (auto &p : params)
    fp32_grads.push_back(torch::zeros(p.sizes(), torch::kFloat));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kHalf)), ys[i].to(torch::kHalf)) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      fp32_grads[k].add_(params[k].grad().to(torch::kFloat));
      params[k].grad().zero_();
    }
    if ((i + 1) % accum == 0) {
      pg->allreduce(fp32_grads)->wait();
      torch::NoGradGuard guard;
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].sub_((0.05 / pg->getSize()) * fp32_grads[k].to(torch::kHalf));
        fp32_grads[k].zero_();
      }
    }
  }
}

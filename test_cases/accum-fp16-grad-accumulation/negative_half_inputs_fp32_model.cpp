// RUN: %check_gradlint %s
// Only tensors are converted to half (`x.to(torch::kHalf)` for a cheaper data transfer);
// the module itself stays float32, so .grad accumulates the 8 micro-batches in float32.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor packed = xs[i].to(torch::kHalf);
    torch::Tensor input = packed.to(torch::kFloat);
    auto loss = torch::mse_loss(model->forward(input), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

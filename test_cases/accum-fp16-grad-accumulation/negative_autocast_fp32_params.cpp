// RUN: %check_gradlint %s
// Mixed precision the safe way: the parameters stay float32 and only the forward pass runs
// under autocast, so the 4 backward() calls per window sum into float32 .grad.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    at::autocast::set_enabled(true);
    auto pred = model->forward(xs[i]);
    at::autocast::set_enabled(false);
    auto loss = torch::mse_loss(pred.to(torch::kFloat), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// No accumulation window: Adam steps on every batch. The lr is divided by a
// `grad_scale` that has nothing to do with accumulation.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, double grad_scale) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3 / grad_scale));
  for (size_t k = 0; k < xs.size(); ++k) {
    adam.zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[k]), ys[k]);
    loss.backward();
    adam.step();
  }
}

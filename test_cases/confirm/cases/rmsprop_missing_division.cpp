// RMSprop divides by the running RMS of the gradient: scale-free too.
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: RMSprop normalises the gradient's scale
// CONFIRM-FIGURE: accum-missing-loss-division update_ratio == 1
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::RMSprop optimizer(model->parameters(), torch::optim::RMSpropOptions(1e-3));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

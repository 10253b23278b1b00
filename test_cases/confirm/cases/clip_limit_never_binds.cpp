// Clipping each micro-batch with a limit that never binds changes nothing.
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: clip limit 1e\+09 never binds
// CONFIRM-FIGURE: accum-per-micro-batch-clip parameter_error_as_written < 1e-5
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1e9);
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Whether step() runs depends on the loss's value: the interpreter cannot
// evaluate it on the stand-in, so it says the loop is not executable.
// CONFIRM-VERDICT: accum-missing-loss-division not-executable: cannot evaluate
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    bool finite = std::isfinite(loss.item<double>());
    if ((i + 1) % accum_steps == 0 && finite) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

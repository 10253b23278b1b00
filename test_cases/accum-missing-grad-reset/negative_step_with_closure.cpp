// RUN: %check_gradlint %s
// step() is given a closure (as LBFGS needs); a closure conventionally zeroes the
// gradients and recomputes the loss itself, so the check stays silent.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::LBFGS lbfgs(model->parameters(), torch::optim::LBFGSOptions(0.1));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      const size_t last = i;
      auto closure = [&]() {
        auto l = torch::mse_loss(model->forward(xs[last]), ys[last]) / accum;
        l.backward();
        return l;
      };
      lbfgs.step(closure);
    }
  }
}

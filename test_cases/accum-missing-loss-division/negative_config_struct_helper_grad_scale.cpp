// RUN: %check_gradlint %s
// N comes from a config struct; the loss is summed and a helper of the TU divides the
// gradients by N in the boundary branch before step().
#include <torch/torch.h>

struct Config {
  int accum_steps = 4;
  double lr = 1e-3;
};

static void scale_grads(torch::nn::Module &m, int n) {
  torch::NoGradGuard guard;
  for (auto &p : m.parameters())
    if (p.grad().defined())
      p.mutable_grad().div_(n);
}

void train(const Config &cfg, torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), cfg.lr);
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::mse_loss(model->forward(xs[i]), ys[i]).backward();
    if ((i + 1) % cfg.accum_steps == 0) {
      scale_grads(*model, cfg.accum_steps);
      sgd.step();
      sgd.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// The scheduler is optional (config flag) and, when enabled, stepped inside the
// boundary branch of a range-for with its own counter: once per optimizer step.
#include <torch/torch.h>

struct Config {
  bool decay_lr = true;
  int accum_steps = 4;
};

void train(torch::nn::Linear &model, std::vector<std::pair<torch::Tensor, torch::Tensor>> &data,
           const Config &cfg) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::StepLR sched(sgd, 30, 0.1);
  int step = 0;
  for (auto &[x, y] : data) {
    torch::mse_loss(model->forward(x), y).div(cfg.accum_steps).backward();
    if (++step % cfg.accum_steps == 0) {
      sgd.step();
      if (cfg.decay_lr)
        sched.step();
      sgd.zero_grad();
    }
  }
}

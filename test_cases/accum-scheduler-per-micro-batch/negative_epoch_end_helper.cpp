// RUN: %check_gradlint %s
// An end-of-epoch helper evaluates and steps the scheduler; it is called after
// the micro-batch loop, once per epoch, not once per micro-batch.
#include <torch/torch.h>

static double end_of_epoch(torch::nn::Sequential &model, torch::optim::StepLR &sched,
                           const torch::Tensor &val_x, const torch::Tensor &val_y) {
  torch::NoGradGuard no_grad;
  double val_loss = torch::mse_loss(model->forward(val_x), val_y).item<double>();
  sched.step();
  return val_loss;
}

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys,
           const torch::Tensor &val_x, const torch::Tensor &val_y, int epochs) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::StepLR sched(adam, 5, 0.5);
  const int accum = 4;
  for (int e = 0; e < epochs; ++e) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
      (loss / accum).backward();
      if ((i + 1) % accum == 0 || i + 1 == xs.size()) {
        adam.step();
        adam.zero_grad();
      }
    }
    std::cout << "epoch " << e << " val " << end_of_epoch(model, sched, val_x, val_y) << "\n";
  }
}

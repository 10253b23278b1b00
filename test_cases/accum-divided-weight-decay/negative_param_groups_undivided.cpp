// RUN: %check_gradlint %s
// The decay is changed after construction through param_groups()[0].options(), to an
// undivided value; the learning rate setter next to it is not a weight decay at all.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05));
  const int micro_steps = 4;
  auto &opts = static_cast<torch::optim::SGDOptions &>(optimizer.param_groups()[0].options());
  opts.weight_decay(0.4);
  optimizer.param_groups()[0].options().set_lr(0.05);
  int filled = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / micro_steps;
    loss.backward();
    if (++filled == micro_steps) {
      optimizer.step();
      optimizer.zero_grad();
      filled = 0;
    }
  }
}

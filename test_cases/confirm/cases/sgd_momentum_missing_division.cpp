// SGD with momentum and weight decay from the code: the update is N times the
// large-batch update at the first step.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
// CONFIRM-FIGURE: accum-missing-loss-division update_ratio > 2
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9).weight_decay(1e-4));
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    micro += 1;
    if (micro % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Adam with L2 weight decay (added to the gradient): the gradient's scale now
// matters against the decay term, so the missing division changes the update.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
// CONFIRM-FIGURE: accum-missing-loss-division parameter_error_as_written > 1e-3
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-2).weight_decay(0.5));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

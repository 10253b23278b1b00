// N read from the command line: the confirmation assumes N = 4 and says so.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == 4
// CONFIRM-ASSUMED: accum-missing-loss-division accum_steps = 4
#include <torch/torch.h>
#include <cstdlib>

int main(int argc, char **argv) {
  int accum_steps = argc > 1 ? std::atoi(argv[1]) : 1;
  torch::nn::Linear model(8, 4);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  std::vector<torch::Tensor> xs, ys;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

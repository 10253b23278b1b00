// RUN: %check_gradlint %s
// The micro-batch counter is declared before the epoch loop and never reset per epoch: a window
// that is open when an epoch ends simply continues into the next one (no micro-batch is lost).
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  int64_t micro_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      micro_step += 1;
      if (micro_step % accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

// RUN: %check_gradlint %s
// A fixed number of micro-batches per epoch (8) that is a multiple of N (4): every window closes
// inside the loop, nothing is left over.
#include <torch/torch.h>

void train(torch::nn::Linear &model, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int i = 0; i < 8; ++i) {
      auto x = torch::randn({16, 10});
      auto y = torch::randn({16, 1});
      auto loss = torch::mse_loss(model->forward(x), y) / accum;
      loss.backward();
      if ((i + 1) % accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

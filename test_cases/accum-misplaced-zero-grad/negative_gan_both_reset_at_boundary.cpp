// RUN: %check_gradlint %s
// Generator and discriminator accumulate over the same window and are both stepped and reset
// in its boundary branch, after every backward() of the window: nothing is misplaced.
#include <torch/torch.h>

void train(torch::nn::Linear &gen, torch::nn::Linear &disc, int iterations) {
  torch::optim::Adam opt_g(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam opt_d(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int window = 2;
  for (int it = 0; it < iterations; ++it) {
    auto fake = gen->forward(torch::randn({16, 4}));
    (torch::softplus(-disc->forward(torch::randn({16, 4}))).mean() / window).backward();
    (torch::softplus(disc->forward(fake.detach())).mean() / window).backward();
    (torch::softplus(-disc->forward(fake)).mean() / window).backward();
    if ((it + 1) % window == 0) {
      opt_d.step();
      opt_g.step();
      gen->zero_grad();
      disc->zero_grad();
    }
  }
}

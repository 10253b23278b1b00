// RUN: %check_gradlint %s
// A GAN with two optimizers, each clipped and stepped on every iteration: no
// accumulation window, so clipping every iteration is correct.
#include <torch/torch.h>

void train(torch::nn::Sequential gen, torch::nn::Sequential disc, std::vector<torch::Tensor> &reals) {
  torch::optim::Adam g_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam d_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  for (auto &real : reals) {
    auto noise = torch::randn({real.size(0), 100});
    auto fake = gen->forward(noise);
    d_opt.zero_grad();
    auto d_loss = torch::binary_cross_entropy_with_logits(disc->forward(real), torch::ones({real.size(0), 1})) +
                  torch::binary_cross_entropy_with_logits(disc->forward(fake.detach()), torch::zeros({real.size(0), 1}));
    d_loss.backward();
    torch::nn::utils::clip_grad_norm_(disc->parameters(), 1.0);
    d_opt.step();
    g_opt.zero_grad();
    auto g_loss = torch::binary_cross_entropy_with_logits(disc->forward(fake), torch::ones({real.size(0), 1}));
    g_loss.backward();
    torch::nn::utils::clip_grad_value_(gen->parameters(), 0.5);
    g_opt.step();
  }
}

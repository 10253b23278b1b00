// RUN: %check_gradlint %s
// GAN with two optimizers, each reset right after its own step() (the discriminator's
// through the module, the generator's through the optimizer).
#include <torch/torch.h>

void train_gan(torch::nn::Sequential gen, torch::nn::Sequential disc,
               const std::vector<torch::Tensor> &noise, const std::vector<torch::Tensor> &real) {
  torch::optim::Adam g_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam d_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int accum = 2;
  for (size_t i = 0; i < noise.size(); ++i) {
    auto fake = gen->forward(noise[i]);
    auto d_loss = (torch::softplus(disc->forward(fake.detach())) +
                   torch::softplus(-disc->forward(real[i])))
                      .mean() /
                  accum;
    d_loss.backward();
    auto g_loss = torch::softplus(-disc->forward(fake)).mean() / accum;
    g_loss.backward();
    if ((i + 1) % accum == 0) {
      d_opt.step();
      disc->zero_grad();
      g_opt.step();
      g_opt.zero_grad();
    }
  }
}

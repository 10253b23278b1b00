// RUN: %check_gradlint %s
// GAN whose discriminator and generator both accumulate, each over its own number
// of micro-batches and with its own guard; each is reset right after its step().
#include <torch/torch.h>

void train(torch::nn::Sequential gen, torch::nn::Sequential disc,
           const std::vector<torch::Tensor> &reals, int64_t zdim) {
  torch::optim::Adam gen_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam disc_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int d_accum = 2;
  const int g_accum = 4;
  auto run = [&] {
    for (size_t i = 0; i < reals.size(); ++i) {
      auto fake = gen->forward(torch::randn({reals[i].size(0), zdim}));
      auto d_loss = (torch::softplus(-disc->forward(reals[i])).mean() +
                     torch::softplus(disc->forward(fake.detach())).mean()) /
                    d_accum;
      d_loss.backward();
      if ((i + 1) % d_accum == 0) {
        disc_opt.step();
        disc_opt.zero_grad();
      }
      auto g_loss = torch::softplus(-disc->forward(fake)).mean() / g_accum;
      g_loss.backward();
      if ((i + 1) % g_accum == 0) {
        gen_opt.step();
        gen_opt.zero_grad();
      }
    }
  };
  run();
}

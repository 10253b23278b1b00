// RUN: %check_gradlint %s
// GAN: the discriminator's optimizer steps every iteration (its per-iteration reset
// is correct); the generator accumulates and is reset right after its step().
#include <torch/torch.h>

void train(torch::nn::Sequential G, torch::nn::Sequential D,
           const std::vector<torch::Tensor> &reals) {
  torch::optim::Adam optG(G->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam optD(D->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  const int g_every = 4;
  for (size_t it = 0; it < reals.size(); ++it) {
    auto fake = G->forward(torch::randn({reals[it].size(0), 100}));
    optD.zero_grad();
    auto errD = torch::binary_cross_entropy_with_logits(D->forward(reals[it]),
                                                        torch::ones({reals[it].size(0), 1})) +
                torch::binary_cross_entropy_with_logits(D->forward(fake.detach()),
                                                        torch::zeros({reals[it].size(0), 1}));
    errD.backward();
    optD.step();

    auto errG = torch::binary_cross_entropy_with_logits(D->forward(fake),
                                                        torch::ones({reals[it].size(0), 1}));
    (errG / g_every).backward();
    if ((it + 1) % g_every == 0) {
      optG.step();
      optG.zero_grad();
    }
  }
}

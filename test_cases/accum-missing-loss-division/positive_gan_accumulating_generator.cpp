// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: Adam normalises
// GAN: the discriminator steps every iteration (its undivided loss is fine), the
// generator accumulates over 4 iterations with an undivided loss -> only g_loss.
#include <torch/torch.h>

void train(torch::nn::Sequential gen, torch::nn::Sequential disc,
           const std::vector<torch::Tensor> &reals) {
  torch::optim::Adam gen_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam disc_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int g_accum = 4;
  for (size_t i = 0; i < reals.size(); ++i) {
    auto fake = gen->forward(torch::randn({reals[i].size(0), 64}));
    disc_opt.zero_grad();
    auto d_loss = torch::softplus(-disc->forward(reals[i])).mean() +
                  torch::softplus(disc->forward(fake.detach())).mean();
    d_loss.backward();
    disc_opt.step();

    auto g_loss = torch::softplus(-disc->forward(fake)).mean();
    g_loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto g_loss = torch::softplus(-disc->forward(fake)).mean();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (g_loss / g_accum).backward();{{$}}
    if ((i + 1) % g_accum == 0) {
      gen_opt.step();
      gen_opt.zero_grad();
    }
  }
}

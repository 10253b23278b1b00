// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-misplaced-zero-grad confirmed: last micro-batch's gradient
// GAN: the discriminator steps every iteration (its zero_grad is fine), the generator
// accumulates over 4 iterations but is zeroed every iteration -> only gen_opt is wrong.
#include <torch/torch.h>

void train(torch::nn::Sequential gen, torch::nn::Sequential disc,
           const std::vector<torch::Tensor> &reals, int64_t zdim) {
  torch::optim::Adam gen_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam disc_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int g_accum = 4;
  for (size_t i = 0; i < reals.size(); ++i) {
    auto noise = torch::randn({reals[i].size(0), zdim});
    auto fake = gen->forward(noise);
    disc_opt.zero_grad();
    auto d_loss = torch::softplus(-disc->forward(reals[i])).mean() +
                  torch::softplus(disc->forward(fake.detach())).mean();
    d_loss.backward();
    disc_opt.step();

    gen_opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}    disc_opt.step();{{$}}
    // CHECK-FIXES-EMPTY:
    // CHECK-FIXES-NEXT: {{^}}    auto g_loss = torch::softplus(-disc->forward(fake)).mean() / g_accum;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    g_loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % g_accum == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      gen_opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      gen_opt.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    auto g_loss = torch::softplus(-disc->forward(fake)).mean() / g_accum;
    g_loss.backward();
    if ((i + 1) % g_accum == 0)
      gen_opt.step();
  }
}

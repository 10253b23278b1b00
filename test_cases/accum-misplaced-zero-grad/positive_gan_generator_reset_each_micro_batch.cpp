// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-misplaced-zero-grad confirmed: last micro-batch's gradient
// A GAN whose generator and discriminator both accumulate and step together in one boundary
// branch. The generator's module reset stayed where the per-batch original had it, at the top
// of the generator's part of every batch: each micro-batch wipes the generator's window, so
// its step() applies only the last micro-batch. The generator's own events hold no backward()
// (all three come before the discriminator's step()), yet its window is read on them.
#include <torch/torch.h>

struct Gan {
  torch::nn::Sequential generator{torch::nn::Linear(8, 16), torch::nn::Tanh()};
  torch::nn::Sequential critic{torch::nn::Linear(16, 1), torch::nn::Sigmoid()};
};

void train(Gan &gan, int iterations, int accumulation) {
  torch::optim::Adam opt_g(gan.generator->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam opt_d(gan.critic->parameters(), torch::optim::AdamOptions(2e-4));
  int micro = 0;
  for (int it = 0; it < iterations; ++it) {
    auto real = torch::randn({32, 16});
    auto fake = gan.generator->forward(torch::randn({32, 8}));
    auto d_real = gan.critic->forward(real);
    (torch::binary_cross_entropy(d_real, torch::ones_like(d_real)) / accumulation).backward();
    auto d_fake = gan.critic->forward(fake.detach());
    (torch::binary_cross_entropy(d_fake, torch::zeros_like(d_fake)) / accumulation).backward();

    gan.generator->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch of an accumulation window of N = accumulation{{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}    (torch::binary_cross_entropy(d_fake, torch::zeros_like(d_fake)) / accumulation).backward();{{$}}
    // CHECK-FIXES-EMPTY:
    // CHECK-FIXES-NEXT: {{^}}    auto g_out = gan.critic->forward(fake);{{$}}
    auto g_out = gan.critic->forward(fake);
    (torch::binary_cross_entropy(g_out, torch::ones_like(g_out)) / accumulation).backward();

    if (++micro == accumulation) {
      opt_d.step();
      opt_g.step();
      // CHECK-FIXES: {{^}}      opt_g.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      gan.generator->zero_grad();{{$}}
      opt_d.zero_grad();
      opt_g.zero_grad();
      micro = 0;
    }
  }
}

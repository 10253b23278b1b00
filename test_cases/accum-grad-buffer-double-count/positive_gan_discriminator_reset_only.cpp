// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: weighted 2, 1
// A GAN: the only per-micro-batch reset is the discriminator's d_opt.zero_grad(), which leaves the
// generator's .grad alone, so g_buf receives its running sum (confirmed on the generator's model).
#include <torch/torch.h>

void train_gan(torch::nn::Sequential gen, torch::nn::Sequential disc,
               const std::vector<torch::Tensor> &noise) {
  torch::optim::Adam g_opt(gen->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam d_opt(disc->parameters(), torch::optim::AdamOptions(2e-4));
  const int accum = 2;
  auto g_params = gen->parameters();
  std::vector<torch::Tensor> g_buf;
  for (auto &p : g_params) g_buf.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < noise.size(); ++i) {
    auto fake = gen->forward(noise[i]);
    auto g_loss = -disc->forward(fake).mean();
    g_loss.backward();
    for (size_t k = 0; k < g_params.size(); ++k) {
      g_buf[k] += g_params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      g_buf[k] += g_params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      g_params[k].grad().zero_();{{$}}
    }
    d_opt.zero_grad();
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < g_params.size(); ++k) {
        g_params[k].mutable_grad() = g_buf[k] / accum;
        g_buf[k].zero_();
      }
      g_opt.step();
      g_opt.zero_grad();
    }
  }
}

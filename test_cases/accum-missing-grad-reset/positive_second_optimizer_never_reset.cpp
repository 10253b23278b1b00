// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: 2\.[0-9]+x
// A Q-network and a curiosity module each have an optimizer; both step at the same boundary,
// but only the Q-network's optimizer is ever reset. The curiosity optimizer's window has no
// backward() of its own in the event order (its loss is added before the Q step), and its
// gradients keep growing: every step applies the sum of all windows so far.
#include <torch/torch.h>

void learn(torch::nn::Linear &q_net, torch::nn::Linear &curiosity, int updates) {
  torch::optim::Adam q_opt(q_net->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::Adam icm_opt(curiosity->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum_steps = 4;
  int count = 0;
  for (int u = 0; u < updates; ++u) {
    auto state = torch::randn({64, 12});
    auto icm_loss = curiosity->forward(state).pow(2).mean() / accum_steps;
    icm_loss.backward();
    auto q_loss = q_net->forward(state).pow(2).mean() / accum_steps;
    q_loss.backward();
    if (++count == accum_steps) {
      q_opt.step();
      icm_opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset in this accumulation loop (N = accum_steps = 4){{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      icm_opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      icm_opt.zero_grad();{{$}}
      q_opt.zero_grad();
      count = 0;
    }
  }
}

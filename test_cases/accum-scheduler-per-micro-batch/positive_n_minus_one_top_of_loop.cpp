// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 1\.000x
// The scheduler is stepped first thing in the loop body, before the forward pass;
// the boundary is `it % N == N - 1`, so the schedule still moves N times per update.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::StepLR lr_sched(adam, 2, 0.5);
  constexpr int64_t kAccum = 2;
  const int64_t total = static_cast<int64_t>(xs.size());
  for (int64_t it = 0; it < total; ++it) {
    lr_sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}  for (int64_t it = 0; it < total; ++it) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::Tensor out = net->forward(xs[it]);{{$}}
    torch::Tensor out = net->forward(xs[it]);
    torch::Tensor loss = torch::mse_loss(out, ys[it]).div(kAccum);
    loss.backward();
    if (it % kAccum == kAccum - 1) {
      adam.step();
      // CHECK-FIXES: {{^}}      adam.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      lr_sched.step();{{$}}
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.500x
// AdamWOptions(3e-4 / accum) with chained weight_decay and betas; the boundary is
// `step % accum == accum - 1`.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  constexpr int64_t accum = 2;
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4 / accum)
  // CHECK-MESSAGES: :[[@LINE-1]]:78: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
                                                 .weight_decay(0.01)
                                                 .betas(std::make_tuple(0.9, 0.95)));
  // CHECK-FIXES: {{^}}  constexpr int64_t accum = 2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4){{$}}
  for (int64_t step = 0; step < static_cast<int64_t>(xs.size()); ++step) {
    torch::Tensor loss = torch::mse_loss(net->forward(xs[step]), ys[step]).div(accum);
    loss.backward();
    if (step % accum == accum - 1) {
      opt.step();
      opt.zero_grad();
    }
  }
}

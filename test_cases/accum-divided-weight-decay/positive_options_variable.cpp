// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.1
// The options are built into a variable first (with the divided decay in the chain) and
// then handed to AdamW; the loop `continue`s until the window is full.
#include <torch/torch.h>

void finetune(torch::nn::Linear head, const std::vector<torch::Tensor> &emb,
              const std::vector<torch::Tensor> &labels) {
  const int grad_accum = 2;
  const double wd = 0.1;
  auto opts = torch::optim::AdamWOptions(0.02).weight_decay(wd / grad_accum);
  // CHECK-MESSAGES: :[[@LINE-1]]:64: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  const double wd = 0.1;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  auto opts = torch::optim::AdamWOptions(0.02).weight_decay(wd);{{$}}
  torch::optim::AdamW optimizer(head->parameters(), opts);
  for (size_t step = 0; step < emb.size(); ++step) {
    auto loss = torch::mse_loss(head->forward(emb[step]), labels[step]) / grad_accum;
    loss.backward();
    if ((step + 1) % grad_accum != 0)
      continue;
    optimizer.step();
    optimizer.zero_grad();
  }
}

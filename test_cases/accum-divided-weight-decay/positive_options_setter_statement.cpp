// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.1
// The options are built in a variable and the divided decay is set by a statement of its
// own, `opts.weight_decay(...)`, before the optimizer is constructed; `continue` form.
#include <torch/torch.h>

void finetune(torch::nn::Linear head, const std::vector<torch::Tensor> &emb,
              const std::vector<torch::Tensor> &labels) {
  const int grad_accum = 2;
  const double wd = 0.1;
  torch::optim::AdamWOptions opts(0.02);
  opts.weight_decay(wd / grad_accum);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  torch::optim::AdamWOptions opts(0.02);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  opts.weight_decay(wd);{{$}}
  opts.betas(std::make_tuple(0.9, 0.98));
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

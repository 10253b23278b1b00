// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: Adam normalises the gradient
// Each micro-batch's summed token loss is divided by that micro-batch's own token count,
// counted inside the loop: a per-micro-batch mean, so the window still sums N means.
#include <torch/torch.h>

void train_tokens(torch::nn::Linear lm, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
                  const std::vector<torch::Tensor> &masks) {
  const int accumulation = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double micro_tokens = masks[i].sum().item<double>();
    auto summed = (lm->forward(xs[i]).squeeze(-1) * masks[i]).pow(2).sum();
    auto loss = summed / micro_tokens;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = summed / micro_tokens;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accumulation).backward();{{$}}
    if ((i + 1) % accumulation == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

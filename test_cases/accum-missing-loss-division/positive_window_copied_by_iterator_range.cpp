// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
// The window is a copy of `group` micro-batches made with an iterator range;
// the inner loop over it sums `group` undivided losses before one step.
#include <torch/torch.h>

void epoch(torch::nn::Linear head, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets, int64_t group) {
  for (int64_t begin = 0; begin + group <= static_cast<int64_t>(inputs.size()); begin += group) {
    std::vector<torch::Tensor> window(inputs.begin() + begin, inputs.begin() + begin + group);
    int64_t k = begin;
    for (const torch::Tensor &x : window) {
      torch::Tensor loss = torch::l1_loss(head->forward(x), targets[k++]);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps (N = group); {{.*}} [accum-missing-loss-division]
      // CHECK-FIXES: {{^}}      torch::Tensor loss = torch::l1_loss(head->forward(x), targets[k++]);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / group).backward();{{$}}
    }
    sgd.step();
    sgd.zero_grad();
  }
}

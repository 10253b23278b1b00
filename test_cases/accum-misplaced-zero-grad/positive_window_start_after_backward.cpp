// RUN: %check_gradlint %s
// The window start guard is right, but it is placed AFTER backward(): at the first
// micro-batch of each window it erases the gradient that was just computed.
#include <torch/torch.h>

void loop(torch::nn::Linear lin, const std::vector<torch::Tensor> &feats,
          const std::vector<torch::Tensor> &gold, int64_t every) {
  torch::optim::AdamW adamw(lin->parameters(), torch::optim::AdamWOptions(2e-4));
  int64_t step = 0;
  while (step < static_cast<int64_t>(feats.size())) {
    auto objective = torch::l1_loss(lin->forward(feats[step]), gold[step]);
    objective.div(every).backward();
    if (0 == step % every)
      adamw.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset at the window start runs after backward(){{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}    objective.div(every).backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (0 == (step + 1) % every) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      adamw.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      adamw.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    if (0 == (step + 1) % every)
      adamw.step();
    ++step;
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// A micro-batch counter that reaches N and is set back to 0: the author resets the counter
// but forgets the gradients, so the counter is the only thing that starts a new window.
#include <torch/torch.h>

void finetune(torch::nn::Linear head, const std::vector<torch::Tensor> &emb,
              const std::vector<torch::Tensor> &target) {
  torch::optim::AdamW optimizer(head->parameters(), torch::optim::AdamWOptions(2e-3));
  const int micro_batches_per_step = 4;
  int pending = 0;
  for (size_t k = 0; k < emb.size(); ++k) {
    torch::Tensor out = head->forward(emb[k]);
    torch::Tensor loss = torch::smooth_l1_loss(out, target[k]);
    loss = loss / micro_batches_per_step;
    loss.backward();
    ++pending;
    if (pending == micro_batches_per_step) {
      optimizer.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      optimizer.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer.zero_grad();{{$}}
      pending = 0;
    }
  }
}

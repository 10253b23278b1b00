// RUN: %check_gradlint %s
// Counter form with the reset at the window's start: when the counter is 0 the gradients
// are zeroed before the first backward() of the window.
#include <torch/torch.h>

void finetune(torch::nn::Linear head, const std::vector<torch::Tensor> &emb,
              const std::vector<torch::Tensor> &target) {
  torch::optim::AdamW optimizer(head->parameters(), torch::optim::AdamWOptions(2e-3));
  const int micro_batches_per_step = 4;
  int pending = 0;
  for (size_t k = 0; k < emb.size(); ++k) {
    if (pending == 0)
      optimizer.zero_grad();
    torch::Tensor loss = torch::smooth_l1_loss(head->forward(emb[k]), target[k]);
    (loss / micro_batches_per_step).backward();
    if (++pending == micro_batches_per_step) {
      optimizer.step();
      pending = 0;
    }
  }
}

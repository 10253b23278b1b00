// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Outer loop over optimizer steps, inner loop over the N micro-batches of the window,
// step() after the inner loop; no reset at the window's start or after the step.
#include <torch/torch.h>

void train_chunks(torch::nn::Linear lin, const std::vector<torch::Tensor> &data,
                  const std::vector<torch::Tensor> &targets) {
  torch::optim::Adam optimizer(lin->parameters(), torch::optim::AdamOptions(5e-3));
  const int chunks = 3;
  const size_t updates = data.size() / 3;
  for (size_t u = 0; u < updates; ++u) {
    for (int c = 0; c < chunks; ++c) {
      const size_t j = u * 3 + c;
      auto loss = torch::mse_loss(lin->forward(data[j]), targets[j]);
      (loss / chunks).backward();
    }
    optimizer.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
    // CHECK-FIXES: {{^}}    optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    optimizer.zero_grad();{{$}}
  }
}

// RUN: %check_gradlint %s
// A helper predicate decides the boundary; the clip outside of it runs on every
// micro-batch.
#include <torch/torch.h>

static bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(torch::nn::Linear &model, torch::optim::Adam &adam,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int window = 4;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    torch::Tensor loss = torch::smooth_l1_loss(model->forward(inputs[i]), targets[i]);
    torch::Tensor scaled = loss / static_cast<double>(window);
    scaled.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    scaled.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (should_step(i, window)) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);{{$}}
    if (should_step(i, window)) {
      adam.step();
      adam.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// The boundary is a helper predicate should_step(i); the model was made float16 first,
// so each of the 8 backward() calls per window rounds into float16 .grad.
#include <torch/torch.h>

static constexpr int kAccumSteps = 8;

static bool should_step(int64_t i) { return (i + 1) % kAccumSteps == 0; }

void train(torch::nn::Linear &head, const std::vector<torch::Tensor> &emb,
           const std::vector<torch::Tensor> &gold) {
  head->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}           const std::vector<torch::Tensor> &gold) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  head->to(torch::kFloat);{{$}}
  torch::optim::AdamW optimizer(head->parameters(), torch::optim::AdamWOptions(2e-4));
  for (int64_t i = 0; i < static_cast<int64_t>(emb.size()); ++i) {
    auto scores = head->forward(emb[i].to(torch::kHalf));
    auto loss = torch::smooth_l1_loss(scores, gold[i].to(torch::kHalf)) / kAccumSteps;
    // CHECK-FIXES-UNSAFE: {{^}}  for (int64_t i = 0; i < static_cast<int64_t>(emb.size()); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto scores = head->forward(emb[i].to(torch::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::smooth_l1_loss(scores, gold[i].to(torch::kFloat)) / kAccumSteps;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if (should_step(i)) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

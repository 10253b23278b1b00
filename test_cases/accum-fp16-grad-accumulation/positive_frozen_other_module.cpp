// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// The frozen module is the teacher; the student that is trained is converted
// to float16 too, and its .grad sums the window in float16.
#include <torch/torch.h>

void distill(torch::nn::Sequential teacher, torch::nn::Sequential student, const std::vector<torch::Tensor> &xs) {
  for (auto &weight : teacher->parameters())
    weight.requires_grad_(false);
  teacher->to(torch::kHalf);
  student->to(torch::kHalf);
  // CHECK-FIXES-UNSAFE: {{^}}    weight.requires_grad_(false);{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  teacher->to(torch::kFloat);{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  student->to(torch::kFloat);{{$}}
  torch::optim::Adam adam(student->parameters(), torch::optim::AdamOptions(1e-3));
  constexpr int kWindow = 16;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor input = xs[i].to(torch::kHalf);
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor input = xs[i].to(torch::kFloat);{{$}}
    torch::Tensor loss = torch::mse_loss(student->forward(input), teacher->forward(input)) / kWindow;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = kWindow = 16 micro-batches into float16 gradients{{.*}} [accum-fp16-grad-accumulation]
    if (i % kWindow == kWindow - 1) {
      adam.step();
      adam.zero_grad();
    }
  }
}

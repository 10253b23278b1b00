// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation not-executable: from a value the interpreter does not follow
// A module reference converted with `module.to(at::kBFloat16)`; a bool flag marks the
// boundary of a 4-micro-batch window, so .grad accumulates in bfloat16. Not executable:
// the forward pass is a matmul on module.parameters()[0], which the runtime cannot map to a model.
#include <torch/torch.h>

void train_bf16(torch::nn::Module &module, const std::vector<torch::Tensor> &inputs,
                const std::vector<torch::Tensor> &targets, torch::optim::Optimizer &optim) {
  module.to(at::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}                const std::vector<torch::Tensor> &targets, torch::optim::Optimizer &optim) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  module.to(at::kFloat);{{$}}
  const int micro_batches = 4;
  for (size_t idx = 0; idx < inputs.size(); ++idx) {
    bool sync_now = (idx + 1) % micro_batches == 0;
    auto logits = inputs[idx].to(at::kBFloat16).matmul(module.parameters()[0].t());
    auto loss = torch::mse_loss(logits, targets[idx].to(at::kBFloat16)) / micro_batches;
    // CHECK-FIXES-UNSAFE: {{^}}    bool sync_now = (idx + 1) % micro_batches == 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto logits = inputs[idx].to(at::kFloat).matmul(module.parameters()[0].t());{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(logits, targets[idx].to(at::kFloat)) / micro_batches;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if (sync_now) {
      optim.step();
      optim.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// The early-continue guard makes everything *after* it the boundary branch;
// the clip sits before the `continue`, so it runs on every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int accum) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                   torch::optim::AdamWOptions(3e-4));
  for (int step = 1; step <= static_cast<int>(inputs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(inputs[step - 1]), targets[step - 1]);
    (loss / accum).backward();
    torch::nn::utils::clip_grad_value_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    (loss / accum).backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (step % accum != 0){{$}}
    // CHECK-FIXES-NEXT: {{^}}      continue;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    torch::nn::utils::clip_grad_value_(model->parameters(), 1.0);{{$}}
    if (step % accum != 0)
      continue;
    opt->step();
    opt->zero_grad();
  }
}

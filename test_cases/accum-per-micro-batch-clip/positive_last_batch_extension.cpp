// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// The guard also steps on the last batch of the epoch; the clip is still
// outside the boundary branch.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int accum_steps) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01));
  const int num_batches = static_cast<int>(inputs.size());
  for (int i = 0; i < num_batches; ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);{{$}}
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// The clip lives in a helper that neither runs backward() nor step(); the
// helper is called on every micro-batch, so the warning points at its call.
#include <torch/torch.h>

void clip_gradients(torch::nn::Module &model) {
  torch::nn::utils::clip_grad_norm_(model.parameters(), 1.0);
}

void train(std::shared_ptr<torch::nn::LinearImpl> model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    clip_gradients(*model);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      clip_gradients(*model);{{$}}
    if ((i + 1) % accum_steps == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

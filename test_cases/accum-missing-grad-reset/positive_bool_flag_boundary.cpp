// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The boundary is held in a bool (`do_update`); the update branch logs and steps but never
// clears .grad, so later steps apply the sum of every earlier window too.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &labels) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accumulation = 2;
  for (size_t idx = 0; idx < inputs.size(); ++idx) {
    const bool do_update = (idx + 1) % accumulation == 0;
    auto loss = torch::mse_loss(model->forward(inputs[idx]), labels[idx]) / accumulation;
    loss.backward();
    if (do_update) {
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
      std::cout << "update after micro-batch " << idx << " loss " << loss.item<float>() << "\n";
    }
  }
}

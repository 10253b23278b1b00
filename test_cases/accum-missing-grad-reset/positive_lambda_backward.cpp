// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// A lambda computes the scaled loss and calls backward(); the loop steps every N
// micro-batches. Neither the lambda nor the loop clears .grad.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &targets) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int n_accum = 2;
  auto accumulate = [&](const torch::Tensor &x, const torch::Tensor &t) {
    auto loss = torch::mse_loss(model->forward(x), t) / n_accum;
    loss.backward();
    return loss.item<double>();
  };
  double running = 0.0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    running += accumulate(inputs[i], targets[i]);
    if ((i + 1) % n_accum == 0) {
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
      running = 0.0;
    }
  }
}

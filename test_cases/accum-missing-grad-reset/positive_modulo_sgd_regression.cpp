// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Linear regression with SGD, stepping every 4 batches on `(batch + 1) % 4`; nothing ever
// clears .grad, so each step() applies the sum of all windows seen so far.
#include <torch/torch.h>

void fit_regressor(torch::nn::Linear regressor, const std::vector<torch::Tensor> &xs,
                   const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(regressor->parameters(), torch::optim::SGDOptions(0.05));
  constexpr int kAccumulate = 4;
  regressor->train();
  for (size_t batch = 0; batch < xs.size(); ++batch) {
    torch::Tensor prediction = regressor(xs[batch]);
    torch::Tensor loss = torch::mse_loss(prediction, ys[batch]) / kAccumulate;
    loss.backward();
    if ((batch + 1) % kAccumulate == 0) {
      sgd.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset in this accumulation loop {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      sgd.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      sgd.zero_grad();{{$}}
    }
  }
}

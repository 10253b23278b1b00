// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// Nested loops: the inner loop runs the micro-batches of a window and Adam steps
// after it; its lr was divided by the inner loop's trip count.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const size_t micro_batches = 4;
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3 / micro_batches));
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const size_t micro_batches = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));{{$}}
  for (size_t start = 0; start + micro_batches <= xs.size(); start += micro_batches) {
    for (size_t m = 0; m < micro_batches; ++m) {
      auto loss = torch::mse_loss(model->forward(xs[start + m]), ys[start + m]);
      (loss / static_cast<double>(micro_batches)).backward();
    }
    adam.step();
    adam.zero_grad();
  }
}

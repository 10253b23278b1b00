// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: another constant factor
// `(loss * N).backward()`: a multiplication by N is not a division by N.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss * N).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (((loss * N)) / N).backward();{{$}}
    if ((i + 1) % N == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

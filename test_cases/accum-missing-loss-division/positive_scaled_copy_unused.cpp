// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// A scaled copy is computed (and only logged) but backward() runs on the unscaled
// loss; `loss.div(N);` as a statement discards its result too.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double &running) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    auto scaled = loss / N;
    running += scaled.item<double>();
    loss.div(N);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    loss.div(N);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / N).backward();{{$}}
    if ((i + 1) % N == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}

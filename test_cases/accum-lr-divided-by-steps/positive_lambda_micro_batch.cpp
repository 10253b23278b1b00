// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// A lambda runs forward and backward of one micro-batch; Adam, stepped every
// N calls, was built with lr / N.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const int N = 4;
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(2e-3 / N).amsgrad(true));
  // CHECK-MESSAGES: :[[@LINE-1]]:78: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int N = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(2e-3).amsgrad(true));{{$}}
  auto micro_batch = [&](const torch::Tensor &x, const torch::Tensor &y) {
    auto loss = torch::mse_loss(model->forward(x), y) / N;
    loss.backward();
  };
  for (size_t j = 0; j < xs.size(); ++j) {
    micro_batch(xs[j], ys[j]);
    if ((j + 1) % N == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

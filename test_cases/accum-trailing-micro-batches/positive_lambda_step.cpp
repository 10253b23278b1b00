// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// The boundary work is wrapped in a lambda; the guard around it still skips the last partial
// window of each epoch.
#include <torch/torch.h>

void train(torch::nn::Linear &net, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(net->parameters(), 0.01);
  const int N = 4;
  auto apply_update = [&opt]() {
    opt.step();
    opt.zero_grad();
  };
  for (int ep = 0; ep < epochs; ++ep) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / N;
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < xs.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / static_cast<double>(i >= xs.size() - xs.size() % N ? xs.size() % N : N);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % N == 0 || i + 1 == xs.size()){{$}}
      loss.backward();
      if ((i + 1) % N == 0)
        apply_update();
      // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
    }
  }
}

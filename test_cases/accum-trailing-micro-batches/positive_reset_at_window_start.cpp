// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 4 of 20 \(20\.0%\) micro-batches never reached a step
// The window resets .grad at its first micro-batch (micro == 0) and the counter is declared per
// epoch: the open window of the previous epoch is discarded by the next epoch's first reset.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int window = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int micro = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (micro == 0)
        opt.zero_grad();
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / window;
      loss.backward();
      ++micro;
      if (micro == window) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        micro = 0;
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (micro != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      micro = 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// A window counter that reaches N and is reset: the fix note asks to step after the loop when
// micro-batches are left over (the counter itself never tells the last batch).
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int window = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int micro = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / window;
      loss.backward();
      ++micro;
      if (micro == window) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
        micro = 0;
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (micro != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      micro = 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

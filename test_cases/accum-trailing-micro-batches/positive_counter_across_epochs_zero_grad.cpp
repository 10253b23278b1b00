// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// The counter runs across epochs, which alone would be fine, but zero_grad() at the top of each
// epoch discards the micro-batches of the window still open from the previous epoch.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  int global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      ++global_step;
      if (global_step % accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (global_step % accum != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

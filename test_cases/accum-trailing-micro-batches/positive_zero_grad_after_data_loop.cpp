// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// A global step counter that runs across epochs, but the epoch ends with zero_grad() after the
// data loop (a "clean slate" for the next epoch) that throws the open window away.
#include <torch/torch.h>

void train(torch::nn::Sequential &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::Adagrad opt(model->parameters(), torch::optim::AdagradOptions(0.01));
  const int accumulate_every = 4;
  int64_t global_step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accumulate_every;
      loss.backward();
      if (++global_step % accumulate_every == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (global_step % accumulate_every != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    model->eval();
    opt.zero_grad();
    model->train();
  }
}

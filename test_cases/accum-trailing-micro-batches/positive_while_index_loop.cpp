// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 1 of 10 \(10\.0%\) micro-batches never reached a step
// A while loop over batch indices that restart each epoch; the guard only fires on multiples of N.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int64_t accum = 2;
  const int64_t num_batches = static_cast<int64_t>(xs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int64_t pos = 0;
    while (pos < num_batches) {
      auto loss = torch::mse_loss(model->forward(xs[pos]), ys[pos]) / accum;
      loss.backward();
      ++pos;
      if (pos % accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (pos % accum != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 14 \(14\.3%\) micro-batches never reached a step
// A while loop whose index is declared before it and incremented at the end of the body; the
// guard reads `(k + 1) % N`. After the loop k is the number of batches, so the flush steps
// when k % N != 0, before the reset at the next epoch's start.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int64_t accumulation_steps = 3;
  const int64_t batches = static_cast<int64_t>(xs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    adam.zero_grad();
    int64_t k = 0;
    while (k < batches) {
      auto loss = torch::l1_loss(model->forward(xs[k]), ys[k]) / accumulation_steps;
      loss.backward();
      if ((k + 1) % accumulation_steps == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window {{.*}} [accum-trailing-micro-batches]
        adam.step();
        adam.zero_grad();
      }
      ++k;
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (k % accumulation_steps != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      adam.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      adam.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

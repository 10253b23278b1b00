// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// A range-for over the epoch's batches with a counter that reaches N and is set back to 0; the
// boundary clips, steps the optimizer and the scheduler. The flush after the loop repeats the
// boundary's statements (not its comment) when micro-batches are left over.
#include <torch/torch.h>

struct Sample {
  torch::Tensor input;
  torch::Tensor label;
};

void fit(torch::nn::Linear &net, const std::vector<Sample> &samples, int epochs) {
  torch::optim::SGD sgd(net->parameters(), 0.1);
  torch::optim::StepLR schedule(sgd, /*step_size=*/10);
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int gathered = 0;
    for (const Sample &sample : samples) {
      auto loss = torch::mse_loss(net->forward(sample.input), sample.label) / accum;
      loss.backward();
      if (++gathered == accum) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window {{.*}} [accum-trailing-micro-batches]
        // One optimizer update per window of `accum` samples.
        torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
        sgd.step();
        schedule.step();
        sgd.zero_grad();
        gathered = 0;
      }
    }
    // CHECK-FIXES-UNSAFE: {{^}}    }{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if (gathered != 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      schedule.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      gathered = 0;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  }
}

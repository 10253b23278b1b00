// RUN: %check_gradlint %s
// The counter wraps at N (`micro = (micro + 1) % accumulate`), so `micro == 0` after the wrap
// is the boundary. The StepLR, sized in optimizer updates, steps on every micro-batch outside
// that branch: its decays come N times too early.
#include <torch/torch.h>
#include <vector>

void train(torch::nn::Linear &head, const std::vector<torch::Tensor> &batches, int accumulate) {
  torch::optim::SGD sgd(head->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::StepLR schedule(sgd, /*step_size=*/2, /*gamma=*/0.1);
  int micro = 0;
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (const auto &batch : batches) {
      (head->forward(batch).abs().mean() / accumulate).backward();
      micro = (micro + 1) % accumulate;
      if (micro == 0) {
        sgd.step();
        // CHECK-FIXES: {{^}}        sgd.step();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        schedule.step();{{$}}
        sgd.zero_grad();
      }
      schedule.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: learning-rate scheduler steps on every micro-batch of an accumulation window of N = accumulate{{.*}} [accum-scheduler-per-micro-batch]
      // CHECK-FIXES: {{^}}      }{{$}}
      // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    }
  }
}

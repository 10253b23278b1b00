// RUN: %check_gradlint %s
// Synthetic batches of a fixed count: 10 micro-batches per epoch with N = 4 leave 2 after the
// last boundary every epoch. Both counts are constants, so the finding is definite (no
// "(conditional)" mark; it is reported without --inconclusive).
#include <torch/torch.h>

void warmup(torch::nn::Linear &model, int epochs) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int accum = 4;
  constexpr int kBatchesPerEpoch = 10;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    sgd.zero_grad();
    for (int b = 0; b < kBatchesPerEpoch; ++b) {
      auto x = torch::randn({16, 10});
      auto loss = model->forward(x).pow(2).mean() / accum;
      // CHECK-FIXES-UNSAFE: {{^}}      auto x = torch::randn({16, 10});{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = model->forward(x).pow(2).mean() / static_cast<double>(b >= kBatchesPerEpoch - kBatchesPerEpoch % accum ? kBatchesPerEpoch % accum : accum);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((b + 1) % accum == 0 || b + 1 == kBatchesPerEpoch) {{{$}}
      loss.backward();
      if ((b + 1) % accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the last partial window of every epoch never reaches step(): the loop runs kBatchesPerEpoch = 10 batches, not a multiple of N = accum = 4: the 2 micro-batches after its last boundary {{.*}} [accum-trailing-micro-batches]
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
}

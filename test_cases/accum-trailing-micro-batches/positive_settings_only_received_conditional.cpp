// RUN: %check_gradlint %s
// The update reads its sizes from a settings struct, but the file never builds one: the caller
// (another file, a config parser) decides the values, so the defaults written in the struct say
// nothing about this run. Whether 7 minibatches leave a partial window of 3 is not known: the
// finding is conditional (only with --inconclusive), not a definite "7 batches".
#include <torch/torch.h>

struct UpdateSettings {
  int passes = 2;
  int minibatches = 7;
  int accumulate = 3;
};

void update(torch::nn::Linear &critic, torch::optim::SGD &sgd, const torch::Tensor &obs,
            const UpdateSettings &settings) {
  auto parts = obs.chunk(settings.minibatches);
  for (int pass = 0; pass < settings.passes; ++pass) {
    sgd.zero_grad();
    for (int m = 0; m < settings.minibatches; ++m) {
      (critic->forward(parts[m]).square().mean() / settings.accumulate).backward();
      if ((m + 1) % settings.accumulate == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches step(): when the loop's batches are not a multiple of N = settings.accumulate,{{.*}} [accum-trailing-micro-batches]
        // CHECK-FIXES-UNSAFE: {{^}}    for (int m = 0; m < settings.minibatches; ++m) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      (critic->forward(parts[m]).square().mean() / static_cast<double>(m >= settings.minibatches - settings.minibatches % settings.accumulate ? settings.minibatches % settings.accumulate : settings.accumulate)).backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((m + 1) % settings.accumulate == 0 || m + 1 == settings.minibatches) {{{$}}
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
}

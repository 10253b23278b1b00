// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: binds only on the window's complete sum
// The loop picks its path by a flag computed from an enum comparison
// (`precision == Precision::kHalf`): that compares a mode, it is no counter reaching N (an
// enum constant 1 is not a window of one micro-batch). On the fp32 path the clip runs on every
// micro-batch, outside the `boundary` flag.
#include <torch/torch.h>
#include <vector>

enum class Precision { kFloat, kHalf, kBFloat };

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &batches, Precision precision,
           bool cuda) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.01));
  const int accumulation_steps = 4;
  const bool half_path = (precision == Precision::kHalf) && cuda;
  int batch_idx = 0;
  for (const auto &x : batches) {
    auto loss = net->forward(x).pow(2).mean();
    ++batch_idx;
    const bool boundary = batch_idx % accumulation_steps == 0;
    if (half_path) {
      (loss.to(torch::kHalf) / accumulation_steps).backward();
      if (boundary) {
        sgd.step();
        sgd.zero_grad();
      }
    } else {
      (loss / accumulation_steps).backward();
      torch::nn::utils::clip_grad_norm_(net->parameters(), 0.5);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on every micro-batch of an accumulation window of N = accumulation_steps = 4{{.*}} [accum-per-micro-batch-clip]
      if (boundary) {
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
}

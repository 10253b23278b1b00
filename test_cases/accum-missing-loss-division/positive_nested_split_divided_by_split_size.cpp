// RUN: %check_gradlint %s
// A lambda splits each batch into pieces of micro_bs rows and divides every
// piece's summed loss by micro_bs: a mean per piece, but the window still sums
// all the pieces' gradients.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &batches,
           int64_t micro_bs) {
  auto run_batch = [&](const torch::Tensor &batch) {
    for (const auto &piece : batch.split(micro_bs)) {
      auto loss = model->forward(piece).pow(2).sum() / micro_bs;
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    }
  };
  for (const auto &batch : batches) {
    run_batch(batch);
    opt.step();
    opt.zero_grad();
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// Function template over the optimizer type; the loss is not divided by k.
#include <torch/torch.h>

template <typename Optimizer>
void train(Optimizer &opt, torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int k) {
  for (size_t j = 0; j < xs.size(); ++j) {
    auto out = net->forward(xs[j]);
    auto loss = torch::binary_cross_entropy_with_logits(out, ys[j]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::binary_cross_entropy_with_logits(out, ys[j]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / k).backward();{{$}}
    if ((j + 1) % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

template void train<torch::optim::Adam>(torch::optim::Adam &, torch::nn::Linear,
                                        const std::vector<torch::Tensor> &,
                                        const std::vector<torch::Tensor> &, int);

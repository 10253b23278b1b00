// RUN: %check_gradlint %s
// An options helper builds the SGD options and sets the weight decay divided
// by the updates' micro-batch count it is given.
#include <torch/torch.h>

torch::optim::SGDOptions sgd_options(double lr, double decay, int64_t per_update) {
  torch::optim::SGDOptions options(lr);
  options.momentum(0.9);
  options.weight_decay(decay / per_update);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: weight decay is divided by the accumulation steps (N = per_update){{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  options.momentum(0.9);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  options.weight_decay(decay);{{$}}
  return options;
}

void train(torch::nn::Conv2d conv, const std::vector<torch::Tensor> &images, int64_t per_update) {
  torch::optim::SGD sgd(conv->parameters(), sgd_options(0.01, 5e-4, per_update));
  int64_t since = 0;
  for (const auto &image : images) {
    (conv->forward(image).relu().mean() / per_update).backward();
    if (++since == per_update) {
      sgd.step();
      sgd.zero_grad();
      since = 0;
    }
  }
}

// RUN: %check_gradlint %s
// Function template over the optimizer type, lambda computing the scaled loss:
// zero_grad() through a template parameter still runs on every micro-batch.
#include <torch/torch.h>

template <typename Optimizer>
void train(Optimizer &optim, torch::nn::Linear net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int k) {
  auto micro_loss = [&](size_t j) { return torch::mse_loss(net->forward(xs[j]), ys[j]) / k; };
  for (size_t j = 0; j < xs.size(); ++j) {
    optim.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}  for (size_t j = 0; j < xs.size(); ++j) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    micro_loss(j).backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (j % k == static_cast<size_t>(k - 1)) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optim.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optim.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    micro_loss(j).backward();
    if (j % k == static_cast<size_t>(k - 1))
      optim.step();
  }
}

template void train<torch::optim::SGD>(torch::optim::SGD &, torch::nn::Linear,
                                       const std::vector<torch::Tensor> &,
                                       const std::vector<torch::Tensor> &, int);

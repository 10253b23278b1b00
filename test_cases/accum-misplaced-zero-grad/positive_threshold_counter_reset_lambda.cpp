// RUN: %check_gradlint %s
// A lambda runs the loop; its counter is compared with `>=` and reset in the branch,
// so it is a window of `accum` micro-batches, and the reset at the top of every
// micro-batch discards the earlier ones.
#include <torch/torch.h>

void train(torch::nn::Linear net, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  auto epoch = [&] {
    int pending = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      adam.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
      // CHECK-FIXES: {{^}}    for (size_t i = 0; i < xs.size(); ++i) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accum;{{$}}
      auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      pending++;
      if (pending >= accum) {
        adam.step();
        // CHECK-FIXES: {{^}}        adam.step();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        adam.zero_grad();{{$}}
        pending = 0;
      }
    }
  };
  epoch();
}

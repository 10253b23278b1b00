// RUN: %check_gradlint %s
// backward() runs in a helper called once per micro-batch that keeps the window with a
// static counter; the caller passes the raw loss, so nothing divides it.
#include <torch/torch.h>

static void micro_step(const torch::Tensor &loss, torch::optim::SGD &sgd) {
  static int seen = 0;
  const int accum = 4;
  loss.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
  // CHECK-FIXES: {{^}}  const int accum = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  (loss / accum).backward();{{$}}
  if (++seen % accum == 0) {
    sgd.step();
    sgd.zero_grad();
  }
}

void loop(torch::nn::Linear net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs) {
  for (const auto &x : xs)
    micro_step(net->forward(x).pow(2).mean(), sgd);
}

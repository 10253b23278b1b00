// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// (The interpreter does not follow the rate through the factory: a stand-in rate
// runs divided by N, as the model reads the division there.)
// main() builds the AdamW optimizer through a factory that shares the rate
// out over the accumulated batches, and passes it by reference to the epoch
// function that accumulates them.
#include <torch/torch.h>

torch::optim::AdamW make_optimizer(const std::vector<torch::Tensor> &params, int64_t micro_batches) {
  return torch::optim::AdamW(params, torch::optim::AdamWOptions().lr(1e-3 / micro_batches).weight_decay(0.01));
  // CHECK-MESSAGES: :[[@LINE-1]]:75: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = micro_batches){{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}torch::optim::AdamW make_optimizer(const std::vector<torch::Tensor> &params, int64_t micro_batches) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  return torch::optim::AdamW(params, torch::optim::AdamWOptions().lr(1e-3).weight_decay(0.01));{{$}}
}

void epoch(torch::nn::Linear net, torch::optim::AdamW &optimizer, const std::vector<torch::Tensor> &xs,
           int64_t micro_batches) {
  for (size_t i = 0; i < xs.size(); ++i) {
    (net->forward(xs[i]).abs().mean() / micro_batches).backward();
    if ((i + 1) % micro_batches == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  optimizer.step(); // the epoch's last, short window
  optimizer.zero_grad();
}

int main() {
  torch::nn::Linear net(8, 8);
  const int64_t micro_batches = 4;
  torch::optim::AdamW optimizer = make_optimizer(net->parameters(), micro_batches);
  std::vector<torch::Tensor> xs(64, torch::randn({2, 8}));
  for (int e = 0; e < 3; ++e)
    epoch(net, optimizer, xs, micro_batches);
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A function template over the optimizer type and a do-while loop; the clip
// still runs on every micro-batch.
#include <torch/torch.h>

template <typename Optimizer>
void train(Optimizer &optim, torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int gas) {
  size_t idx = 0;
  do {
    auto loss = torch::mse_loss(model->forward(xs[idx]), ys[idx]);
    loss = loss / gas;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((idx + 1) % gas == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);{{$}}
    if ((idx + 1) % gas == 0) {
      optim.step();
      optim.zero_grad();
    }
    ++idx;
  } while (idx < xs.size());
}

template void train<torch::optim::SGD>(torch::optim::SGD &, torch::nn::Linear &,
                                       std::vector<torch::Tensor> &, std::vector<torch::Tensor> &, int);

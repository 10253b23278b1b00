// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 4 of 20 \(20\.0%\) micro-batches never reached a step
// zero_grad() at the start of every epoch with an index guard: the leftover micro-batches of
// the previous epoch are backpropagated and then silently thrown away.
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const size_t accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(accum);
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < xs.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(static_cast<double>(i >= xs.size() - xs.size() % accum ? xs.size() % accum : accum));{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % accum == 0 || i + 1 == xs.size()) {{{$}}
      loss.backward();
      if ((i + 1) % accum == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 10 \(20\.0%\) micro-batches never reached a step
// A function template over the model and optimizer types, called once per epoch; its index loop
// restarts per call, so the trailing micro-batches of each call are never stepped in that call.
#include <torch/torch.h>

template <typename Model, typename Optim>
void train_epoch(Model &model, Optim &optim, const std::vector<torch::Tensor> &xs,
                 const std::vector<torch::Tensor> &ys, int64_t accum) {
  const int64_t total = static_cast<int64_t>(xs.size());
  for (int64_t i = 0; i < total; ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    // CHECK-FIXES-UNSAFE: {{^}}  for (int64_t i = 0; i < total; ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(i >= total - total % accum ? total % accum : accum);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum == 0 || i + 1 == total) {{{$}}
    loss.backward();
    if ((i + 1) % accum == 0) {
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: (conditional) the last partial window of the loop never reaches {{.*}} [accum-trailing-micro-batches]
      optim.step();
      optim.zero_grad();
    }
  }
}

void run(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  for (int e = 0; e < 3; ++e)
    train_epoch(model, sgd, xs, ys, 4);
}

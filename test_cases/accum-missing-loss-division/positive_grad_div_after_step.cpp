// RUN: %check_gradlint %s
// The gradients are divided by N in the boundary branch, but AFTER step() (and then
// zeroed): the update already used the undivided sum ("order matters").
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / N).backward();{{$}}
    if ((i + 1) % N == 0) {
      opt.step();
      for (auto &p : model->parameters())
        p.mutable_grad().div_(N);
      opt.zero_grad();
    }
  }
}

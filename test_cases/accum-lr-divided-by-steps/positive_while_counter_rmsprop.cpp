// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// A while loop over a vector of samples with a separate counter; RMSprop with
// lr / accumulate_every and centered=true.
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  const int accumulate_every = 4;
  torch::optim::RMSprop rms(model->parameters(),
                            torch::optim::RMSpropOptions(4e-3 / accumulate_every).centered(true));
                            // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  torch::optim::RMSprop rms(model->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}                            torch::optim::RMSpropOptions(4e-3).centered(true));{{$}}
  size_t idx = 0;
  int pending = 0;
  while (idx < data.size()) {
    auto &[x, y] = data[idx++];
    torch::mse_loss(model->forward(x), y).div(accumulate_every).backward();
    if (++pending == accumulate_every) {
      rms.step();
      rms.zero_grad();
      pending = 0;
    }
  }
}

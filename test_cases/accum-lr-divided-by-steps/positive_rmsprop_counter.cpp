// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// RMSprop with lr / N; a micro-batch counter reaches N and is reset.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &samples) {
  constexpr int kMicro = 4;
  constexpr double kLearningRate = 1e-2;
  torch::optim::RMSprop rms(model->parameters(),
                            torch::optim::RMSpropOptions(kLearningRate / kMicro).alpha(0.9));
                            // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  torch::optim::RMSprop rms(model->parameters(),{{$}}
  // CHECK-FIXES-NEXT: {{^}}                            torch::optim::RMSpropOptions(kLearningRate).alpha(0.9));{{$}}
  int micro = 0;
  for (const auto &s : samples) {
    auto loss = torch::mse_loss(model->forward(s.first), s.second) / kMicro;
    loss.backward();
    if (++micro == kMicro) {
      rms.step();
      rms.zero_grad();
      micro = 0;
    }
  }
}

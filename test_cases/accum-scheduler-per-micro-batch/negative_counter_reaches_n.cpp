// RUN: %check_gradlint %s
// A counter that reaches N and is reset guards the update; the scheduler is
// stepped in the same branch.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model, torch::optim::SGD &opt, torch::optim::StepLR &sched,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &samples) {
  constexpr int kMicro = 4;
  int micro = 0;
  for (const auto &s : samples) {
    auto loss = torch::mse_loss(model->forward(s.first), s.second) / kMicro;
    loss.backward();
    if (++micro == kMicro) {
      opt.step();
      sched.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}

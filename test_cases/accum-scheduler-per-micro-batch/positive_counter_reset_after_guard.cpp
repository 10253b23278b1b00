// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.250x
// A micro-batch counter reaches N and is reset inside the update branch; the
// scheduler sits after that branch at the end of the body, on every micro-batch.
#include <torch/torch.h>

void train_epoch(torch::nn::Linear model, torch::optim::SGD &opt,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &samples) {
  torch::optim::StepLR sched(opt, 1, 0.5);
  constexpr int kMicro = 4;
  int micro = 0;
  for (const auto &s : samples) {
    auto loss = torch::mse_loss(model->forward(s.first), s.second) / kMicro;
    loss.backward();
    if (++micro == kMicro) {
      opt.step();
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      sched.step();{{$}}
      opt.zero_grad();
      micro = 0;
    }
    sched.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  }
}

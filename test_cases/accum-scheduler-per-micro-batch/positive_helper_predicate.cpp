// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.250x
// A helper predicate decides when to step; the scheduler is stepped after the
// `if (should_step(i))` block, on every call of the loop body.
#include <torch/torch.h>

namespace {
constexpr int kAccumulate = 4;
bool should_step(size_t i) { return (i + 1) % kAccumulate == 0; }
} // namespace

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::optim::StepLR lr_scheduler(optimizer, 1, 0.5);
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / kAccumulate;
    loss.backward();
    if (should_step(i)) {
      optimizer.step();
      // CHECK-FIXES: {{^}}      optimizer.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      lr_scheduler.step();{{$}}
      optimizer.zero_grad();
    }
    lr_scheduler.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// A helper predicate decides the boundary; it never fires for the epoch's last partial window.
#include <torch/torch.h>

static constexpr int kAccumSteps = 4;

static bool should_step(size_t idx) { return (idx + 1) % kAccumSteps == 0; }

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int epochs) {
  torch::optim::SGD sgd(model->parameters(), 0.02);
  for (int ep = 0; ep < epochs; ++ep) {
    for (size_t idx = 0; idx < inputs.size(); ++idx) {
      auto loss = torch::mse_loss(model->forward(inputs[idx]), targets[idx]) / kAccumSteps;
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t idx = 0; idx < inputs.size(); ++idx) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(model->forward(inputs[idx]), targets[idx]) / static_cast<double>(idx >= inputs.size() - inputs.size() % kAccumSteps ? inputs.size() % kAccumSteps : kAccumSteps);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (should_step(idx) || idx + 1 == inputs.size()) {{{$}}
      loss.backward();
      if (should_step(idx)) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
}

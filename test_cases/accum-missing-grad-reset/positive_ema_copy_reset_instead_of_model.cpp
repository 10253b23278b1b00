// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: 2\.[0-9]+x
// The loop resets the gradients of the EMA copy (which no optimizer updates) instead of
// the student the optimizer trains: the student's .grad is never cleared, so each
// step() applies the sum of every window so far.
#include <torch/torch.h>

struct Student : torch::nn::Module {
  Student() { body = register_module("body", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(const torch::Tensor &x) { return body->forward(x); }
  torch::nn::Linear body{nullptr};
};

void distill(std::shared_ptr<Student> student, std::shared_ptr<Student> ema,
             const std::vector<torch::Tensor> &inputs, const std::vector<torch::Tensor> &targets) {
  torch::optim::SGD sgd(student->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const int micro_steps = 4;
  int seen = 0;
  for (size_t b = 0; b < inputs.size(); ++b) {
    auto pred = student->forward(inputs[b]);
    auto loss = torch::mse_loss(pred, targets[b]) / micro_steps;
    loss.backward();
    if (++seen == micro_steps) {
      seen = 0;
      sgd.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-MESSAGES: :[[@LINE+6]]:7: note: this reset clears another model's gradients{{.*}}
      // CHECK-FIXES: {{^}}      sgd.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      sgd.zero_grad();{{$}}
      torch::NoGradGuard no_grad;
      for (size_t p = 0; p < ema->parameters().size(); ++p)
        ema->parameters()[p].mul_(0.99).add_(student->parameters()[p], 0.01);
      ema->zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// The optimizer is held as a shared_ptr to the base class, built with
// make_shared<Adam> and a learning rate divided by the window size.
#include <torch/torch.h>

struct Learner {
  std::shared_ptr<torch::optim::Optimizer> optimizer;
  torch::nn::Sequential policy;
  int window;

  Learner(torch::nn::Sequential p, int w) : policy(std::move(p)), window(w) {
    optimizer = std::make_shared<torch::optim::Adam>(policy->parameters(),
                                                        torch::optim::AdamOptions(7e-4 / window));
    // CHECK-MESSAGES: :[[@LINE-1]]:88: warning: learning rate of an adaptive optimizer is divided by the accumulation steps (N = window){{.*}} [accum-lr-divided-by-steps]
    // CHECK-FIXES: {{^}}    optimizer = std::make_shared<torch::optim::Adam>(policy->parameters(),{{$}}
    // CHECK-FIXES-NEXT: {{^}}                                                        torch::optim::AdamOptions(7e-4));{{$}}
  }

  void update(const std::vector<torch::Tensor> &observations) {
    for (size_t t = 0; t < observations.size(); ++t) {
      (policy->forward(observations[t]).logsumexp(1).mean() / window).backward();
      if (t % window == window - 1) {
        optimizer->step();
        optimizer->zero_grad();
      }
    }
  }
};

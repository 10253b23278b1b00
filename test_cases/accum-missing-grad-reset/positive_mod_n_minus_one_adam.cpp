// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Classifier trained with Adam, boundary written as `it % accum == accum - 1`. The author
// zeroed the gradients once before the loop and never again: windows pile up.
#include <torch/torch.h>

struct Classifier : torch::nn::Module {
  Classifier() {
    fc1 = register_module("fc1", torch::nn::Linear(16, 32));
    fc2 = register_module("fc2", torch::nn::Linear(32, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

void run_epoch(std::shared_ptr<Classifier> net, const std::vector<torch::Tensor> &features,
               const std::vector<torch::Tensor> &labels) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum = 3;
  adam.zero_grad();
  for (int it = 0; it < static_cast<int>(features.size()); it++) {
    auto logits = net->forward(features[it]);
    auto loss = torch::nn::functional::cross_entropy(logits, labels[it]);
    (loss / accum).backward();
    if (it % accum == accum - 1) {
      adam.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      adam.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      adam.zero_grad();{{$}}
    }
  }
}

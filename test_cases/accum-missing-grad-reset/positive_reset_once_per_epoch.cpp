// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// The gradients are zeroed once per epoch, outside the accumulation loop over batches;
// within an epoch every step() still applies the sum of all earlier windows.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      if ((i + 1) % accum == 0 || i + 1 == xs.size()) {
        opt.step();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
        // CHECK-FIXES: {{^}}        opt.step();{{$}}
        // CHECK-FIXES-NEXT: {{^}}        opt.zero_grad();{{$}}
      }
    }
  }
}

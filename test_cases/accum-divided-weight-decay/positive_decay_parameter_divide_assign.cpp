// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay [0-9.]+ as written vs 0\.01 in the reference
// The weight decay arrives as a parameter and is divided in place before SGD is built with it:
// the `weight_decay /= N;` statement is deleted.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, double weight_decay) {
  const int accum_steps = 8;
  weight_decay /= accum_steps;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: weight decay is divided {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  const int accum_steps = 8;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::SGD sgd(model->parameters(),{{$}}
  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.05).momentum(0.9).weight_decay(weight_decay));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if (i % accum_steps == accum_steps - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

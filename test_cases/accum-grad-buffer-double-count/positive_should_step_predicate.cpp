// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 3, 2, 1
// The boundary test lives in a helper predicate; the per-micro-batch buffer add reads a .grad
// that still holds every earlier micro-batch of the window.
#include <torch/torch.h>

static bool should_step(int64_t iteration, int64_t accum) {
  return (iteration + 1) % accum == 0;
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &x,
           const std::vector<torch::Tensor> &y) {
  torch::optim::SGD optim(model->parameters(), 0.1);
  const int64_t accum = 3;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> sum_grads;
  for (const auto &p : params) {
    sum_grads.emplace_back(torch::zeros_like(p));
  }
  for (int64_t iteration = 0; iteration < static_cast<int64_t>(x.size()); ++iteration) {
    auto loss = torch::mse_loss(model->forward(x[iteration]), y[iteration]);
    loss.backward();
    for (size_t i = 0; i < params.size(); ++i) {
      sum_grads[i] += params[i].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      sum_grads[i] += params[i].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[i].grad().zero_();{{$}}
    }
    if (should_step(iteration, accum)) {
      for (size_t i = 0; i < params.size(); ++i) {
        params[i].mutable_grad() = sum_grads[i] / static_cast<double>(accum);
        sum_grads[i].zero_();
      }
      optim.step();
      optim.zero_grad();
    }
  }
}

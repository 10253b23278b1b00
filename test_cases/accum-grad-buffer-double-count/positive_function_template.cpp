// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// Function template over the optimizer type; the per-micro-batch `+=` into the buffer adds
// the running .grad sum because zero_grad() only runs at the boundary.
#include <torch/torch.h>

template <typename Optimizer>
void train_generic(torch::nn::Linear model, Optimizer &optimizer,
                   const std::vector<torch::Tensor> &inputs,
                   const std::vector<torch::Tensor> &targets, int accum) {
  auto params = model->parameters();
  std::vector<torch::Tensor> acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k] += params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      acc[k] += params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].grad().copy_(acc[k]);
        acc[k].zero_();
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void run(torch::nn::Linear model, const std::vector<torch::Tensor> &inputs,
         const std::vector<torch::Tensor> &targets) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  train_generic(model, sgd, inputs, targets, 2);
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count not-executable: does not follow
// Buffer keyed by parameter name in a std::map, filled from named_parameters() each
// micro-batch; .grad is only cleared after the step, so the map receives running sums.
// not-executable: the interpreter does not follow a buffer held in a std::map.
#include <torch/torch.h>
#include <map>
#include <string>

void train_named(torch::nn::Sequential model, const std::vector<torch::Tensor> &xs,
                 const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  std::map<std::string, torch::Tensor> grad_store;
  for (const auto &item : model->named_parameters()) {
    grad_store[item.key()] = torch::zeros_like(item.value());
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (auto &item : model->named_parameters()) {
      grad_store[item.key()] += item.value().grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      grad_store[item.key()] += item.value().grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      item.value().grad().zero_();{{$}}
    }
    if ((i + 1) % accum == 0) {
      for (auto &item : model->named_parameters()) {
        item.value().mutable_grad() = grad_store[item.key()].clone();
        grad_store[item.key()].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

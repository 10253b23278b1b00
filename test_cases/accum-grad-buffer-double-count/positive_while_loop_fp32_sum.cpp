// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// While loop over the batch index; fp32 sums rebuilt as `acc = acc + g.to(kFloat)` each
// micro-batch. The gradients are never zeroed between the micro-batches of a window.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 2;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> fp32_sum;
  for (const auto &p : params) fp32_sum.push_back(torch::zeros_like(p, torch::kFloat));
  size_t i = 0;
  while (i < xs.size()) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      fp32_sum[k] = fp32_sum[k] + params[k].grad().to(torch::kFloat);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      fp32_sum[k] = fp32_sum[k] + params[k].grad().to(torch::kFloat);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    ++i;
    if (i % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = fp32_sum[k].to(params[k].dtype());
        fp32_sum[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// The add is the whole body of a brace-less for; the fix has to wrap it together with the
// .grad reset. The boundary clears .grad, but only after step().
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 2;
  auto ps = model->parameters();
  std::vector<torch::Tensor> sums;
  for (auto &p : ps) sums.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::mse_loss(model->forward(xs[i]), ys[i]).backward();
    for (size_t k = 0; k < ps.size(); ++k)
      sums[k] += ps[k].grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES: {{^}}    for (size_t k = 0; k < ps.size(); ++k){{$}}
    // CHECK-FIXES-NEXT: {{^}}      { sums[k] += ps[k].grad(); ps[k].grad().zero_(); }{{$}}
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < ps.size(); ++k) {
        ps[k].mutable_grad() = sums[k] / accum;
        sums[k].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// A helper does nothing but fold the current .grad of every parameter into the buffer; it is
// called after each backward() while .grad is cleared only once per window.
#include <torch/torch.h>

static void accumulate_into(std::vector<torch::Tensor> &buffer,
                            const std::vector<torch::Tensor> &params) {
  torch::NoGradGuard guard;
  for (size_t i = 0; i < params.size(); ++i) {
    buffer[i] += params[i].grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
    // CHECK-FIXES-UNSAFE: {{^}}    buffer[i] += params[i].grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    params[i].grad().zero_();{{$}}
  }
}

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int n_accum = 2;
  auto params = model->parameters();
  std::vector<torch::Tensor> buffer;
  for (auto &p : params) buffer.push_back(torch::zeros_like(p));
  for (size_t t = 0; t < xs.size(); ++t) {
    auto loss = torch::mse_loss(model->forward(xs[t]), ys[t]);
    loss.backward();
    accumulate_into(buffer, params);
    if (t % n_accum == n_accum - 1) {
      for (size_t i = 0; i < params.size(); ++i) {
        params[i].mutable_grad() = buffer[i] / n_accum;
        buffer[i].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 4, 3, 2, 1
// A micro-batch counter reaching N and being reset; the buffer is rebuilt with
// `acc = acc + grad`, still from a .grad that nobody clears before the next backward().
#include <torch/torch.h>

void train_counter(torch::nn::Linear model, const std::vector<torch::Tensor> &data,
                   const std::vector<torch::Tensor> &target) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));
  const int accumulate = 4;
  int seen = 0;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> running;
  for (const auto &p : params) running.push_back(torch::zeros_like(p));
  for (size_t b = 0; b < data.size(); ++b) {
    torch::Tensor loss = torch::mse_loss(model->forward(data[b]), target[b]);
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      running[k] = running[k] + params[k].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      running[k] = running[k] + params[k].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[k].grad().zero_();{{$}}
    }
    ++seen;
    if (seen == accumulate) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = running[k] / accumulate;
        running[k] = torch::zeros_like(params[k]);
      }
      optimizer.step();
      optimizer.zero_grad();
      seen = 0;
    }
  }
}

// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x
// Adagrad with its lr divided by the accumulation steps; the boundary is kept in
// a bool flag.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const int64_t n_accum = 4;
  torch::optim::Adagrad ada(model->parameters(), torch::optim::AdagradOptions(0.1 / n_accum));
  // CHECK-MESSAGES: :[[@LINE-1]]:83: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int64_t n_accum = 4;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adagrad ada(model->parameters(), torch::optim::AdagradOptions(0.1));{{$}}
  for (int64_t k = 0; k < static_cast<int64_t>(xs.size()); ++k) {
    const bool do_update = (k + 1) % n_accum == 0;
    auto objective = torch::mse_loss(model->forward(xs[k]), ys[k]) / n_accum;
    objective.backward();
    if (do_update) {
      ada.step();
      ada.zero_grad();
    }
  }
}

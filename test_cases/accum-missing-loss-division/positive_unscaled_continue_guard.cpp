// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// do-while loop with the `continue` boundary guard: everything after it is the
// boundary branch; the loss is not divided and neither are the gradients.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int n_acc = 2;
  size_t it = 0;
  do {
    torch::Tensor l = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]);
    l.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    torch::Tensor l = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (l / n_acc).backward();{{$}}
    ++it;
    if (it % n_acc != 0)
      continue;
    adam.step();
    adam.zero_grad();
  } while (it < xs.size());
}

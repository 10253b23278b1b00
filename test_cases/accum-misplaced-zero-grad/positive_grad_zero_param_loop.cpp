// RUN: %check_gradlint %s
// Hand-written reset `p.grad().zero_()` over model->parameters() at the top of each
// micro-batch (do-while loop, `continue` boundary guard).
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::Adam &adam,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int n_acc = 2;
  size_t it = 0;
  do {
    for (auto &p : model->parameters()) {
      if (p.grad().defined())
        p.grad().zero_();
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    }
    // CHECK-FIXES-UNSAFE: {{^}}  do {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    torch::Tensor loss = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]);{{$}}
    torch::Tensor loss = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]);
    loss /= n_acc;
    loss.backward();
    ++it;
    if (it % n_acc != 0)
      continue;
    adam.step();
    // CHECK-FIXES-UNSAFE: {{^}}    adam.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    for (auto &p : model->parameters()) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (p.grad().defined()){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        p.grad().zero_();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
  } while (it < xs.size());
}

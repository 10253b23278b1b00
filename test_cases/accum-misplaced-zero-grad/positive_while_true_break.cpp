// RUN: %check_gradlint %s
// `while (true)` with a break, counter pre-incremented in the guard; zero_grad() at
// the top of every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  int i = 0;
  while (true) {
    if (i >= static_cast<int>(xs.size()))
      break;
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}      break;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++i % N == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / N;
    loss.backward();
    if (++i % N == 0)
      opt.step();
  }
}

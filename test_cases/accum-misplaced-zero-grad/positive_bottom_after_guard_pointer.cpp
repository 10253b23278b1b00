// RUN: %check_gradlint %s
// Reset at the bottom of the loop body, after the boundary guard: on the
// non-boundary micro-batches it still runs after backward(), so the window never sums.
#include <torch/torch.h>

void fit(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys, int gas) {
  auto *opt = new torch::optim::Adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int i = 0; i < static_cast<int>(xs.size()); i++) {
    torch::Tensor out = net->forward(xs[i]);
    torch::Tensor l = torch::nn::functional::cross_entropy(out, ys[i]) / gas;
    l.backward();
    if (i % gas == gas - 1)
      opt->step();
    // CHECK-FIXES: {{^}}    l.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (i % gas == gas - 1) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt->step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt->zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    opt->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
  }
  delete opt;
}

// RUN: %check_gradlint %s
// One optimizer, two losses: the reset between the two backward() calls runs on
// every micro-batch and discards the first loss's gradient and the window's.
#include <torch/torch.h>

template <typename Optimizer>
void train(torch::nn::Linear encoder, torch::nn::Linear head, Optimizer &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto features = encoder->forward(xs[i]);
    auto task_loss = torch::mse_loss(head->forward(features), ys[i]) / accum;
    task_loss.backward({}, /*retain_graph=*/true);
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}    task_loss.backward({}, /*retain_graph=*/true);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto reg_loss = features.pow(2).mean() / accum;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    reg_loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
    auto reg_loss = features.pow(2).mean() / accum;
    reg_loss.backward();
    if ((i + 1) % accum == 0)
      opt.step();
  }
}

template void train<torch::optim::SGD>(torch::nn::Linear, torch::nn::Linear, torch::optim::SGD &,
                                       const std::vector<torch::Tensor> &,
                                       const std::vector<torch::Tensor> &);

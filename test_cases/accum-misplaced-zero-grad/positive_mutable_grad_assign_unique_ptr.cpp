// RUN: %check_gradlint %s
// `p.mutable_grad() = torch::Tensor()` every micro-batch, optimizer held by a
// std::unique_ptr, boundary extended to the last batch of the epoch.
#include <memory>
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  auto opt = std::make_unique<torch::optim::AdamW>(model->parameters());
  const int num_batches = static_cast<int>(xs.size());
  for (int i = 0; i < num_batches; ++i) {
    for (auto &param : model->parameters())
      param.mutable_grad() = torch::Tensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}  for (int i = 0; i < num_batches; ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto scaled = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(accum_steps);{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    scaled.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      opt->step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      for (auto &param : model->parameters()){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        param.mutable_grad() = torch::Tensor();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    auto scaled = torch::mse_loss(model->forward(xs[i]), ys[i]) / static_cast<double>(accum_steps);
    scaled.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches)
      opt->step();
  }
}
